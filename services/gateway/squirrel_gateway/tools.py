"""The MCP tool layer: declared tools, budgets enforced on their output, errors for the model."""

import base64
import binascii
import hashlib
import json
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Annotated, Any, Final, TypeVar

import structlog
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field, WithJsonSchema

from squirrel_core.budget import MAX_BUDGET_TOKENS, MIN_BUDGET_TOKENS, Packed, pack, validate_budget
from squirrel_core.errors import (
    InvalidArgumentError,
    PermissionDeniedError,
    SquirrelError,
    UnavailableError,
)
from squirrel_gateway.backend import MemoryBackend
from squirrel_gateway.projects import normalise_scope_paths
from squirrel_gateway.schemas import (
    ALL_MEMORY_TYPES,
    ForgetResponse,
    MemoryTypeName,
    ModuleSummary,
    PitfallItem,
    PitfallsView,
    ProjectBriefView,
    RememberResponse,
    SearchResponse,
    SearchResult,
    SelectedMemory,
    TaskContext,
    UserStyleItem,
    UserStyleView,
    ViewMode,
)

log = structlog.get_logger()

T = TypeVar("T")

VIEW_BUDGET_DEFAULT: Final = 256
TASK_BUDGET_DEFAULT: Final = 400
SEARCH_BUDGET_DEFAULT: Final = 400
SEARCH_TOP_K_DEFAULT: Final = 5
SEARCH_TOP_K_MAX: Final = 50
MAX_QUERY_CHARS: Final = 2000
MAX_TASK_CHARS: Final = 4000
MAX_MEMORY_CHARS: Final = 4000
MAX_TAGS: Final = 20

NO_TASK_MEMORY: Final = "No relevant long-term memory found for this task."
NO_PITFALLS: Final = "No relevant memory found: no known pitfalls are recorded for this scope."

INSTRUCTIONS: Final = f"""\
Squirrel is this developer's long-term memory of how they code and what this project is.
Squirrel does not decide when to call its tools; you do. Recommended policy:

On a new session in a repo, call:
- get_user_style_view(mode="core", context_budget_tokens=256)
- get_project_brief_view(mode="core", context_budget_tokens=256)

On a specific coding task, call:
- get_task_context(task_description=..., active_file_paths=..., context_budget_tokens=400)

On risky or cross-cutting tasks (e.g. refactor auth, migrate a database), call:
- get_pitfalls_view(scope_paths=[...], context_budget_tokens=256)
- get_task_context(task_description=..., context_budget_tokens=400)

When you need deep recall, call:
- search_project_memory(query=..., top_k=5)

Context budget: every read tool accepts context_budget_tokens (alias max_tokens, \
{MIN_BUDGET_TOKENS}..{MAX_BUDGET_TOKENS:,}) and its text never exceeds it. Small models \
(8-16k context): pass 150-256. Large models (200k+): pass 400-800. Every response ends with \
"📏 ~N tokens" (what it cost). When the budget cut items off, a "⚡ Budget" line says how many \
were shown of how many and how to get more (a larger budget, or the search cursor). When a tool \
says no relevant memory was found, proceed without it.
"""

_READ_ONLY = dict(read_only_hint=True, destructive_hint=False, idempotent_hint=True)

# --- declared arguments ---------------------------------------------------------------------

ProjectRootArg = Annotated[
    str,
    Field(
        description="Absolute path of the repository you are working in (or any directory inside"
        " it). The project must have been registered with `sqrl init`."
    ),
]
UserIdArg = Annotated[
    str | None,
    Field(description="Whose preferences to use; omit for the local user.", max_length=200),
]


def _budget_schema(default: int, alias_of: str | None = None) -> WithJsonSchema:
    about = (
        f"Alias of {alias_of}, for hosts that use this name."
        if alias_of
        else "Most tokens the response may take; items that would not fit are left out and"
        " counted in a budget footer."
    )
    return WithJsonSchema(
        {
            "type": "integer",
            "minimum": MIN_BUDGET_TOKENS,
            "maximum": MAX_BUDGET_TOKENS,
            "description": f"{about} Default {default}.",
        }
    )


# Budgets are declared as integers but validated by `validate_budget`, so a bad value gets a
# message that says what to send instead of a schema-validation dump.
ViewBudgetArg = Annotated[Any, _budget_schema(VIEW_BUDGET_DEFAULT)]
ViewBudgetAliasArg = Annotated[Any, _budget_schema(VIEW_BUDGET_DEFAULT, "context_budget_tokens")]
TaskBudgetArg = Annotated[Any, _budget_schema(TASK_BUDGET_DEFAULT)]
TaskBudgetAliasArg = Annotated[Any, _budget_schema(TASK_BUDGET_DEFAULT, "context_budget_tokens")]
SearchBudgetArg = Annotated[Any, _budget_schema(SEARCH_BUDGET_DEFAULT)]
SearchBudgetAliasArg = Annotated[
    Any, _budget_schema(SEARCH_BUDGET_DEFAULT, "context_budget_tokens")
]

ModeArg = Annotated[
    ViewMode,
    Field(
        description='"core": 3-5 top items, for session start. "full": richer, for big decisions.'
    ),
]
PathsArg = Annotated[
    list[str] | None,
    Field(description="File or directory paths (globs allowed), relative to the project root."),
]
TypesArg = Annotated[
    list[MemoryTypeName] | None,
    Field(description="Memory types to consider; omit for all."),
]


# --- the server -------------------------------------------------------------------------------


def build_mcp_server(backend: MemoryBackend, *, allow_writes: bool) -> MCPServer:
    """An MCP server exposing Squirrel's read tools, plus `remember`/`forget` if `allow_writes`."""
    server: MCPServer = MCPServer(name="squirrel", instructions=INSTRUCTIONS)

    @server.tool(
        title="Memory for a coding task",
        annotations=ToolAnnotations(title="Memory for a coding task", **_READ_ONLY),
    )
    async def get_task_context(
        *,
        project_root: ProjectRootArg,
        task_description: Annotated[
            str, Field(description="One or two sentences saying what you are about to do.")
        ],
        active_file_paths: PathsArg = None,
        preferred_memory_types: TypesArg = None,
        user_id: UserIdArg = None,
        context_budget_tokens: TaskBudgetArg = None,
        max_tokens: TaskBudgetAliasArg = None,
    ) -> Annotated[CallToolResult, TaskContext]:
        """The primary tool. Call it when you start a specific coding task (a feature, a fix, a
        refactor): it returns only the memories relevant to that task (user style, project facts,
        pitfalls, recipes), each with the reason it matters. Costs at most context_budget_tokens
        (default 400; typically 100-400 tokens). If it says no relevant memory was found, go
        ahead without it."""

        async def run() -> TaskContext:
            budget = _budget(context_budget_tokens, max_tokens, TASK_BUDGET_DEFAULT)
            task = _required_text(task_description, "task_description", MAX_TASK_CHARS)
            project_id = await backend.resolve_project(project_root)
            paths = normalise_scope_paths(active_file_paths, project_id, field="active_file_paths")
            types = _types(preferred_memory_types)
            data = await backend.get_task_context(
                project_id,
                user_id=user_id,
                task_description=task,
                active_file_paths=paths,
                preferred_memory_types=types,
                budget=budget,
            )
            memories = list(data.selected_memories) if data.has_relevant_memory else []
            if not memories:
                packed: Packed[SelectedMemory] = pack([], _render_selected, budget, NO_TASK_MEMORY)
            else:
                packed = pack(
                    memories,
                    _render_selected,
                    budget,
                    "## Relevant memory for this task",
                    how_to_get_more=_raise_budget_hint(budget),
                )
            _log_packed("get_task_context", packed)
            return TaskContext(
                project_id=data.project_id,
                user_id=data.user_id,
                task_description=data.task_description,
                generated_at=data.generated_at,
                token_estimate=packed.token_estimate,
                has_relevant_memory=bool(memories),
                selected_memories=list(packed.shown),
                markdown=packed.text,
            )

        return _as_result(await _guarded("get_task_context", run))

    @server.tool(
        title="User coding style",
        annotations=ToolAnnotations(title="User coding style", **_READ_ONLY),
    )
    async def get_user_style_view(
        *,
        project_root: ProjectRootArg,
        mode: ModeArg = "core",
        user_id: UserIdArg = None,
        context_budget_tokens: ViewBudgetArg = None,
        max_tokens: ViewBudgetAliasArg = None,
    ) -> Annotated[CallToolResult, UserStyleView]:
        """How this user likes code written (language idioms, testing, tooling, naming). Call it
        once at the start of a session in a repository, with mode="core". Costs at most
        context_budget_tokens (default 256; typically 80-250 tokens)."""

        async def run() -> UserStyleView:
            budget = _budget(context_budget_tokens, max_tokens, VIEW_BUDGET_DEFAULT)
            project_id = await backend.resolve_project(project_root)
            data = await backend.get_user_style_view(
                project_id, user_id=user_id, mode=mode, budget=budget
            )
            header = "## User Coding Style"
            if not data.items:
                header += (
                    "\n\nNo relevant memory found: no coding-style preferences are recorded yet."
                )
            packed = pack(
                list(data.items),
                _render_style,
                budget,
                header,
                how_to_get_more=_raise_budget_hint(budget),
            )
            _log_packed("get_user_style_view", packed)
            return UserStyleView(
                mode=data.mode,
                project_id=data.project_id,
                user_id=data.user_id,
                generated_at=data.generated_at,
                token_estimate=packed.token_estimate,
                items=list(packed.shown),
                markdown=packed.text,
            )

        return _as_result(await _guarded("get_user_style_view", run))

    @server.tool(
        title="Project overview",
        annotations=ToolAnnotations(title="Project overview", **_READ_ONLY),
    )
    async def get_project_brief_view(
        *,
        project_root: ProjectRootArg,
        mode: ModeArg = "core",
        context_budget_tokens: ViewBudgetArg = None,
        max_tokens: ViewBudgetAliasArg = None,
    ) -> Annotated[CallToolResult, ProjectBriefView]:
        """What this project is: frameworks, services, key facts and its main modules. Call it
        once at the start of a session in a repository, with mode="core". Costs at most
        context_budget_tokens (default 256; typically 100-250 tokens)."""

        async def run() -> ProjectBriefView:
            budget = _budget(context_budget_tokens, max_tokens, VIEW_BUDGET_DEFAULT)
            project_id = await backend.resolve_project(project_root)
            data = await backend.get_project_brief_view(project_id, mode=mode, budget=budget)
            entries: list[str | ModuleSummary] = [*data.key_facts, *data.modules]
            header = "## Project Overview"
            if not entries:
                header += "\n\nNo relevant memory found: no project facts are recorded yet."
            packed = pack(
                entries, _render_brief, budget, header, how_to_get_more=_raise_budget_hint(budget)
            )
            _log_packed("get_project_brief_view", packed)
            return ProjectBriefView(
                mode=data.mode,
                project_id=data.project_id,
                generated_at=data.generated_at,
                token_estimate=packed.token_estimate,
                modules=[e for e in packed.shown if isinstance(e, ModuleSummary)],
                key_facts=[e for e in packed.shown if isinstance(e, str)],
                markdown=packed.text,
            )

        return _as_result(await _guarded("get_project_brief_view", run))

    @server.tool(
        title="Known pitfalls",
        annotations=ToolAnnotations(title="Known pitfalls", **_READ_ONLY),
    )
    async def get_pitfalls_view(
        *,
        project_root: ProjectRootArg,
        scope_paths: PathsArg = None,
        task_description: Annotated[
            str | None,
            Field(description="What you are about to do, to rank pitfalls by relevance."),
        ] = None,
        context_budget_tokens: ViewBudgetArg = None,
        max_tokens: ViewBudgetAliasArg = None,
    ) -> Annotated[CallToolResult, PitfallsView]:
        """Traps already hit in this project (failing tests, wrong commands, subtle bugs) for the
        files you name. Call it before risky or cross-cutting changes (auth, migrations, build,
        concurrency). Costs at most context_budget_tokens (default 256; typically 50-250 tokens)."""

        async def run() -> PitfallsView:
            budget = _budget(context_budget_tokens, max_tokens, VIEW_BUDGET_DEFAULT)
            task = (
                _required_text(task_description, "task_description", MAX_TASK_CHARS)
                if task_description is not None
                else None
            )
            project_id = await backend.resolve_project(project_root)
            paths = normalise_scope_paths(scope_paths, project_id)
            data = await backend.get_pitfalls_view(
                project_id, scope_paths=paths, task_description=task, budget=budget
            )
            items = list(data.items) if data.has_relevant_pitfalls else []
            if items:
                packed: Packed[PitfallItem] = pack(
                    items,
                    _render_pitfall,
                    budget,
                    "## Known Pitfalls",
                    how_to_get_more=_raise_budget_hint(budget),
                )
            else:
                packed = pack([], _render_pitfall, budget, f"## Known Pitfalls\n\n{NO_PITFALLS}")
            _log_packed("get_pitfalls_view", packed)
            return PitfallsView(
                project_id=data.project_id,
                generated_at=data.generated_at,
                token_estimate=packed.token_estimate,
                has_relevant_pitfalls=bool(items),
                items=list(packed.shown),
                markdown=packed.text,
            )

        return _as_result(await _guarded("get_pitfalls_view", run))

    @server.tool(
        title="Search project memory",
        annotations=ToolAnnotations(title="Search project memory", **_READ_ONLY),
    )
    async def search_project_memory(
        *,
        project_root: ProjectRootArg,
        query: Annotated[str, Field(description="What to recall, in words or identifiers.")],
        top_k: Annotated[
            int,
            Field(ge=1, le=SEARCH_TOP_K_MAX, description="Most results to return in this page."),
        ] = SEARCH_TOP_K_DEFAULT,
        types: TypesArg = None,
        scope_paths: PathsArg = None,
        cursor: Annotated[
            str | None,
            Field(description="next_cursor from a previous call with the same query: continue."),
        ] = None,
        context_budget_tokens: SearchBudgetArg = None,
        max_tokens: SearchBudgetAliasArg = None,
    ) -> Annotated[CallToolResult, SearchResponse]:
        """Deep recall: search every memory of this project by meaning and keywords, with a score,
        the reason it matched and its source (episodes, files). Call it when you need something
        specific the other tools did not give you. Costs at most context_budget_tokens (default
        400; typically 60-80 tokens per result). Pass next_cursor back as cursor for more."""

        async def run() -> SearchResponse:
            budget = _budget(context_budget_tokens, max_tokens, SEARCH_BUDGET_DEFAULT)
            text = _required_text(query, "query", MAX_QUERY_CHARS)
            project_id = await backend.resolve_project(project_root)
            kinds = _types(types)
            paths = normalise_scope_paths(scope_paths, project_id)
            fingerprint = _search_fingerprint(project_id, text, kinds, paths)
            after, skip = _decode_cursor(cursor, fingerprint) if cursor else (None, 0)
            page = await backend.search_memory(
                project_id,
                query=text,
                top_k=top_k + skip,
                types=kinds,
                scope_paths=paths,
                cursor=after,
            )
            results = list(page.results)[skip : skip + top_k]

            def next_cursor(shown: int) -> str | None:
                if shown < len(results):
                    return _encode_cursor(after, skip + shown, fingerprint)
                if page.next_cursor is not None:
                    return _encode_cursor(page.next_cursor, 0, fingerprint)
                return None

            def hint(shown: int) -> str:
                token = next_cursor(shown)
                more = f'Call again with cursor="{token}" for the next results' if token else ""
                if shown < len(results):
                    more += f", or raise context_budget_tokens (now {budget})"
                return f"{more}." if more else ""

            header = f"## Memory search: {_one_line(text)}"
            if not results:
                header += "\n\nNo relevant memory found for this query."
            packed = pack(
                results,
                _render_search_result,
                budget,
                header,
                total=max(page.total, skip + len(results)),
                how_to_get_more=hint,
            )
            _log_packed("search_project_memory", packed)
            return SearchResponse(
                query=text,
                results=list(packed.shown),
                total=packed.total,
                next_cursor=next_cursor(len(packed.shown)),
                token_estimate=packed.token_estimate,
                markdown=packed.text,
            )

        return _as_result(await _guarded("search_project_memory", run))

    if allow_writes:
        _add_write_tools(server, backend)
    return server


def _add_write_tools(server: MCPServer, backend: MemoryBackend) -> None:
    @server.tool(
        title="Remember",
        annotations=ToolAnnotations(
            title="Remember", read_only_hint=False, destructive_hint=False, idempotent_hint=False
        ),
    )
    async def remember(
        *,
        project_root: ProjectRootArg,
        content: Annotated[
            str, Field(description="The memory, as one self-contained sentence or two.")
        ],
        memory_type: Annotated[
            MemoryTypeName,
            Field(description="user_style, project_fact, pitfall or recipe."),
        ] = "project_fact",
        key: Annotated[
            str | None,
            Field(
                description="Short snake_case anchor; a memory with the same key is updated.",
                max_length=200,
            ),
        ] = None,
        tags: Annotated[list[str] | None, Field(description="A few topic tags.")] = None,
        importance: Annotated[float, Field(ge=0.0, le=1.0, description="0 to 1.")] = 0.7,
        file_paths: PathsArg = None,
        user_id: UserIdArg = None,
    ) -> Annotated[CallToolResult, RememberResponse]:
        """Store something the user asked you to remember, or a correction of a memory, so that
        future sessions get it. Only call it when the user asks, or to record a clear, durable
        fact or preference. Cheap: about 30 tokens back."""

        async def run() -> RememberResponse:
            text = _required_text(content, "content", MAX_MEMORY_CHARS)
            tag_list = [t.strip() for t in (tags or []) if t.strip()]
            if len(tag_list) > MAX_TAGS:
                raise InvalidArgumentError(f"tags may list at most {MAX_TAGS} tags")
            project_id = await backend.resolve_project(project_root)
            paths = normalise_scope_paths(file_paths, project_id, field="file_paths")
            outcome = await backend.remember(
                project_id,
                user_id=user_id,
                memory_type=memory_type,
                key=key,
                content=text,
                tags=tag_list,
                importance=importance,
                file_paths=paths,
            )
            log.info("memory_remembered", memory_id=outcome.memory_id, action=outcome.action)
            return RememberResponse(
                memory_id=outcome.memory_id,
                action=outcome.action,
                version=outcome.version,
                markdown=f"Remembered as {outcome.memory_id} ({outcome.action},"
                f" version {outcome.version}).",
            )

        return _as_result(await _guarded("remember", run))

    @server.tool(
        title="Forget",
        annotations=ToolAnnotations(
            title="Forget", read_only_hint=False, destructive_hint=True, idempotent_hint=True
        ),
    )
    async def forget(
        *,
        project_root: ProjectRootArg,
        memory_id: Annotated[str, Field(description="The memory_id to forget.", max_length=200)],
        reason: Annotated[
            str | None, Field(description="Why it is wrong or obsolete.", max_length=1000)
        ] = None,
    ) -> Annotated[CallToolResult, ForgetResponse]:
        """Forget a memory that is wrong or obsolete (it is marked deleted; its history is kept).
        Only call it when the user asks you to. Cheap: about 20 tokens back."""

        async def run() -> ForgetResponse:
            ident = _required_text(memory_id, "memory_id", 200)
            project_id = await backend.resolve_project(project_root)
            outcome = await backend.forget(project_id, memory_id=ident, reason=reason)
            log.info("memory_forgotten", memory_id=outcome.memory_id, deleted=outcome.deleted)
            said = "Forgot" if outcome.deleted else "Already forgotten:"
            return ForgetResponse(
                memory_id=outcome.memory_id,
                deleted=outcome.deleted,
                markdown=f"{said} {outcome.memory_id}.",
            )

        return _as_result(await _guarded("forget", run))


# --- error handling and results ---------------------------------------------------------------


async def _guarded(tool: str, run: Callable[[], Awaitable[T]]) -> T:
    """Run a tool body; domain errors become ToolErrors written for the model, crashes generic."""
    started = time.monotonic()
    try:
        result = await run()
    except ToolError:
        raise
    except SquirrelError as exc:
        log.info("tool_call_refused", tool=tool, error=type(exc).__name__)
        raise ToolError(_message_for(exc)) from None
    except Exception as exc:
        log.error("tool_call_failed", tool=tool, error=type(exc).__name__, exc_info=True)
        raise ToolError(
            f"{tool} failed inside Squirrel. Retry once; if it fails again, continue without"
            " memory and suggest the user run `sqrl status`."
        ) from None
    log.info("tool_called", tool=tool, duration_ms=round((time.monotonic() - started) * 1000, 1))
    return result


def _message_for(exc: SquirrelError) -> str:
    message = str(exc) or type(exc).__name__
    if isinstance(exc, UnavailableError):
        return f"{message} The Squirrel services may be down: ask the user to run `sqrl up`."
    if isinstance(exc, PermissionDeniedError) and "sqrl init" not in message:
        return f"{message} Run `sqrl init` in the repository first."
    return message


def _as_result(model: BaseModel) -> CallToolResult:
    """The model reads `markdown` (budgeted); hosts and programs get the same data structured."""
    markdown = getattr(model, "markdown", "")
    return CallToolResult(
        content=[TextContent(type="text", text=str(markdown))],
        structured_content=model.model_dump(mode="json"),
    )


def _log_packed(tool: str, packed: Packed[Any]) -> None:
    log.info(
        "response_packed",
        tool=tool,
        shown=len(packed.shown),
        total=packed.total,
        token_estimate=packed.token_estimate,
        capped=packed.capped,
    )


# --- argument checks --------------------------------------------------------------------------


def _budget(value: object, alias: object, default: int) -> int:
    if value is not None and alias is not None and value != alias:
        raise InvalidArgumentError(
            "context_budget_tokens and max_tokens are the same setting; send only one of them."
        )
    return validate_budget(
        value if value is not None else alias,
        default,
        name="context_budget_tokens" if value is not None or alias is None else "max_tokens",
    )


def _required_text(value: str, field: str, limit: int) -> str:
    text = value.strip()
    if not text:
        raise InvalidArgumentError(f"{field} must not be empty.")
    if "\x00" in text:
        raise InvalidArgumentError(f"{field} must not contain NUL bytes.")
    if len(text) > limit:
        raise InvalidArgumentError(
            f"{field} is {len(text):,} characters; keep it under {limit:,} (a summary is enough)."
        )
    return text


def _types(values: Sequence[MemoryTypeName] | None) -> tuple[MemoryTypeName, ...]:
    if not values:
        return ALL_MEMORY_TYPES
    return tuple(dict.fromkeys(values))


def _raise_budget_hint(budget: int) -> str:
    if budget >= MAX_BUDGET_TOKENS:
        return "The rest do not fit in the largest budget; use search_project_memory for them."
    bigger = min(MAX_BUDGET_TOKENS, budget * 2)
    return f"Call again with context_budget_tokens={bigger} to see more."


# --- search continuation cursors --------------------------------------------------------------


def _search_fingerprint(
    project_id: str, query: str, types: Sequence[str], paths: Sequence[str]
) -> str:
    blob = json.dumps([project_id, query, sorted(types), list(paths)], ensure_ascii=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _encode_cursor(after: str | None, skip: int, fingerprint: str) -> str:
    raw = json.dumps({"a": after, "s": skip, "f": fingerprint}, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _decode_cursor(cursor: str, fingerprint: str) -> tuple[str | None, int]:
    bad = InvalidArgumentError(
        "cursor is not a next_cursor this server returned; omit it to start from the best match."
    )
    if len(cursor) > 4096:
        raise bad
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        data = json.loads(raw)
    except (binascii.Error, ValueError):
        raise bad from None
    if not isinstance(data, dict):
        raise bad
    after, skip, mark = data.get("a"), data.get("s"), data.get("f")
    if not (after is None or isinstance(after, str)) or not isinstance(mark, str):
        raise bad
    if isinstance(skip, bool) or not isinstance(skip, int) or not 0 <= skip <= 10_000:
        raise bad
    if mark != fingerprint:
        raise InvalidArgumentError(
            "cursor belongs to a different search; send the same query, types and scope_paths"
            " as the call that returned it, or omit the cursor."
        )
    return after, skip


# --- markdown ---------------------------------------------------------------------------------


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _render_selected(memory: SelectedMemory) -> str:
    line = f"- [{memory.type}] {_one_line(memory.content)}"
    reason = _one_line(memory.reason)
    return f"{line} — why: {reason}" if reason else line


def _render_style(item: UserStyleItem) -> str:
    return f"- {_one_line(item.summary)}"


def _render_brief(entry: str | ModuleSummary) -> str:
    if isinstance(entry, str):
        return f"- {_one_line(entry)}"
    paths = ", ".join(f"`{_one_line(p)}`" for p in entry.paths)
    where = f" ({paths})" if paths else ""
    return f"- Module **{_one_line(entry.name)}**{where}: {_one_line(entry.summary)}"


def _render_pitfall(item: PitfallItem) -> str:
    files = ", ".join(f"`{_one_line(p)}`" for p in item.file_paths)
    return f"- {_one_line(item.content)}" + (f" (in {files})" if files else "")


def _render_search_result(result: SearchResult) -> str:
    files = ", ".join(f"`{_one_line(p)}`" for p in result.source.file_paths)
    line = (
        f"- [{result.type}] {_one_line(result.content)} (score {result.score:.2f},"
        f" {result.memory_id})"
    )
    reason = _one_line(result.reason)
    if reason:
        line += f" — {reason}"
    if files:
        line += f" Files: {files}"
    return line
