"""The debate engine: plain Python, no Django (docs/engine.md).

This module is the engine's public face: the rest of the project imports the engine
from here and nowhere deeper (an import contract in pyproject.toml checks it), so the
engine's own layout can change without touching its callers; ``manage.py debate``
wraps the command line through the names under "the command line" below.

Importing the engine loads no plugin: the registries load them all (``plugins``: the
built-in protocols, their simulated answers, the ``sim/`` provider and the content
rules, then third-party ones) the first time they are asked, once per process. A
plugin, loaded then, imports only this face (docs/engine.md, "Plugins").
"""

from . import loading, plugins

loading.load_with(plugins.load_plugins)

from .cli import DESCRIPTION as CLI_DESCRIPTION  # noqa: E402
from .cli import EPILOG as CLI_EPILOG  # noqa: E402
from .cli import (  # noqa: E402
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    CliError,
    report_quality,
    run_here,
    start_progress,
    write_result,
)
from .cli import add_arguments as add_cli_arguments  # noqa: E402
from .cli import build_state as build_cli_state  # noqa: E402
from .configure import check_agents, check_decision_rule, resolve_config  # noqa: E402
from .evaluation.report import EvaluationReport, report_json, report_markdown  # noqa: E402
from .evaluation.runs import (  # noqa: E402
    ARMS as EVALUATION_ARMS,
)
from .evaluation.runs import (  # noqa: E402
    UPDATES as POPULATION_UPDATES,
)
from .evaluation.runs import (  # noqa: E402
    ArmAnswer,
    EvaluationSpec,
    QuestionOutcome,
    evaluate_question,
    questions_for,
    report_from_outcomes,
)
from .evaluation.sets import GENERATORS as GENERATED_SETS  # noqa: E402
from .evaluation.sets import LabelledSet, Question  # noqa: E402
from .evaluation.uploads import UploadError, parse_upload  # noqa: E402
from .hooks import EngineEvent, EngineHooks  # noqa: E402
from .hookspec import hookimpl  # noqa: E402
from .i18n import (  # noqa: E402
    Catalogue,
    Translator,
    citer_words,
    domain_layers,
    option_label,
    step_words,
    translator,
    where_words,
)
from .i18n.catalogues import COMPILE_HINT, ENGLISH, CatalogueNotCompiled  # noqa: E402
from .i18n.catalogues import read_messages as read_catalogue_messages  # noqa: E402
from .inputs import InputError, check_model, clean_question, parse_panel_models  # noqa: E402
from .language import detect_language  # noqa: E402
from .llm.capabilities import (  # noqa: E402
    ModelSettings,
    is_simulated,
    load_model_settings,
    uses_simulator,
)
from .llm.capabilities import configure as configure_models  # noqa: E402
from .llm.gateway import Cancelled  # noqa: E402
from .llm.loader import imported_litellm, litellm_module, preload  # noqa: E402
from .llm.loader import warm as warm_model_stack  # noqa: E402
from .llm.usage import usage_from_calls  # noqa: E402
from .markdown import inline  # noqa: E402
from .novelty import DEFAULT_THRESHOLD as NEAR_DUPLICATE_THRESHOLD  # noqa: E402
from .novelty import similarity, tokens  # noqa: E402
from .options import options_from_question, parse_options  # noqa: E402
from .persona_files import (  # noqa: E402
    MAX_PERSONA_FILE_CHARS,
    PersonaFileError,
    load_persona_text,
    parse_personas,
)
from .progress import ConsoleProgress  # noqa: E402
from .prompts import PROMPT_VERSION, PromptFolder  # noqa: E402
from .protocols import (  # noqa: E402
    PANEL,
    AgentForecast,
    AnswerFact,
    Ask,
    DebateForecasts,
    DebateProtocol,
    Fact,
    PageAnswer,
    PageStep,
    Participant,
    PlannedCall,
    Request,
    ResultPart,
    UnknownProtocol,
    choices,
    get_protocol,
    known_protocols,
    result_models,
    run_protocol,
)
from .protocols.base import role_persona  # noqa: E402
from .protocols.content import checked as check_content  # noqa: E402
from .protocols.report_parts import mark_unfound_citations  # noqa: E402
from .quality.rules import Finding as RuleFinding  # noqa: E402
from .quality.rules import Rule as QualityRule  # noqa: E402
from .receipts import FORMAT as RECEIPT_FORMAT  # noqa: E402
from .receipts import key_id_of as receipt_key_id  # noqa: E402
from .receipts import public_key_b64 as receipt_public_key_b64  # noqa: E402
from .receipts import public_key_pem as receipt_public_key_pem  # noqa: E402
from .receipts import sign as sign_receipt  # noqa: E402
from .schemas import (  # noqa: E402
    MAX_AGENTS,
    MAX_QUESTION_CHARS,
    MAX_ROUNDS,
    MIN_AGENTS,
    MIN_ROUNDS,
    MODE_DEFAULTS,
    PERSONA_MODEL_MAX,
    PERSONA_NAME_MAX,
    PERSONA_TEXT_MAX,
    CallRecord,
    CheckedCitation,
    DebateConfig,
    DecisionRule,
    EngineEventKind,
    EvidenceReport,
    EvidenceUse,
    Mode,
    ModeSetting,
    Persona,
    Phase,
    ProtocolResult,
    Quality,
    QualityReason,
    ResultSummary,
    SimulatorOptions,
    StopReason,
    Turn,
    TurnStatus,
    UnverifiedClaim,
    Usage,
)
from .sim.config import parse_faults, simulator_options_from_env  # noqa: E402
from .sim.generate import CallContext  # noqa: E402
from .sources.citations import PassageCitation, citations_in, quote_found  # noqa: E402
from .sources.documents import SourceDocument  # noqa: E402
from .sources.extract import (  # noqa: E402
    MAX_SOURCE_BYTES,
    ExtractedText,
    SourceRefused,
    check_source_file,
    extract_text,
)
from .sources.offer import BUDGET_TOKENS as SOURCE_BUDGET_TOKENS  # noqa: E402
from .sources.offer import FOCUS_SHARE as SOURCE_FOCUS_SHARE  # noqa: E402
from .sources.passages import Passage, split_passages  # noqa: E402
from .state import DebateState, Step  # noqa: E402
from .text_checks import printable  # noqa: E402

__all__ = [
    # the command line (manage.py debate wraps it)
    "CLI_DESCRIPTION", "CLI_EPILOG", "CliError", "add_cli_arguments", "build_cli_state",
    "start_progress", "run_here", "write_result", "report_quality", "EXIT_BAD_INPUT",
    "EXIT_FAILED", "EXIT_INTERRUPTED",
    # configuration and input
    "DebateConfig", "Mode", "ModeSetting", "MODE_DEFAULTS", "SimulatorOptions",
    "resolve_config", "check_agents", "DecisionRule", "check_decision_rule", "InputError",
    "check_model", "clean_question", "parse_panel_models",
    "MAX_AGENTS", "MIN_AGENTS", "MAX_ROUNDS", "MIN_ROUNDS", "MAX_QUESTION_CHARS",
    "parse_faults", "simulator_options_from_env", "detect_language", "PROMPT_VERSION",
    # signed decision receipts (docs/teams.md, "Decision receipts")
    "RECEIPT_FORMAT", "sign_receipt", "receipt_key_id", "receipt_public_key_b64",
    "receipt_public_key_pem",
    # sources (the team's documents)
    "SourceDocument", "Passage", "split_passages", "ExtractedText", "SourceRefused", "extract_text",
    "PassageCitation", "citations_in", "quote_found", "EvidenceReport", "CheckedCitation",
    "EvidenceUse", "mark_unfound_citations",
    "check_source_file", "MAX_SOURCE_BYTES", "SOURCE_BUDGET_TOKENS", "SOURCE_FOCUS_SHARE",
    # uploaded text (docs/engine.md, "Uploaded text")
    "printable",
    # the evaluation harness
    "EVALUATION_ARMS", "POPULATION_UPDATES", "ArmAnswer", "EvaluationSpec", "QuestionOutcome",
    "evaluate_question", "questions_for", "report_from_outcomes", "EvaluationReport",
    "report_json", "report_markdown", "GENERATED_SETS", "LabelledSet", "Question",
    "UploadError", "parse_upload",
    # personas
    "Persona", "PERSONA_NAME_MAX", "PERSONA_TEXT_MAX", "PERSONA_MODEL_MAX",
    "MAX_PERSONA_FILE_CHARS", "PersonaFileError", "load_persona_text", "parse_personas",
    # running a debate
    "DebateState", "Step", "Phase", "Turn",
    "TurnStatus", "CallRecord",
    "EngineEvent",
    "EngineEventKind", "EngineHooks", "Cancelled", "run_protocol", "ConsoleProgress",
    "usage_from_calls", "Usage",
    # protocols
    "DebateProtocol", "Participant", "PlannedCall", "ResultPart", "UnknownProtocol", "choices",
    "get_protocol",
    "known_protocols", "result_models", "AgentForecast", "DebateForecasts",
    # what a plugin builds with (docs/engine.md, "Plugins")
    "hookimpl", "Ask", "Request", "PageStep", "Fact", "PageAnswer", "AnswerFact", "PANEL",
    "role_persona", "PromptFolder",
    "ProtocolResult", "CallContext", "uses_simulator", "QualityRule", "RuleFinding",
    "check_content",
    # results
    "ResultSummary", "Quality", "QualityReason", "StopReason",
    "options_from_question", "parse_options",
    "UnverifiedClaim",
    # wording and text
    "Translator", "translator", "Catalogue", "CatalogueNotCompiled", "COMPILE_HINT",
    "ENGLISH", "read_catalogue_messages", "step_words", "citer_words", "where_words",
    "option_label", "inline", "domain_layers",
    "similarity", "tokens",
    "NEAR_DUPLICATE_THRESHOLD",
    # models
    "is_simulated", "load_model_settings", "configure_models", "ModelSettings",
    "litellm_module", "imported_litellm", "preload", "warm_model_stack",
]
