"""The shape the files of one folder share, as a session read and wrote them, per ecosystem."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.sibling_patterns import sibling_patterns
from squirrel_memory.models import MemoryType
from tests.unit.memory.test_rules_extractor import PROJECT, Stream, by_key, extract
from tests.unit.memory.test_session_about import _numbered

# (folder, file names, one file's text with {Name} in it, the base as stated, the name ending)
SAMPLES = {
    "ruby": (
        "app/tools",
        ("run_code_tool.rb", "create_page_tool.rb", "web_fetch_tool.rb"),
        "module App\n  class {Name}Tool < FastMcp::Tool\n    def call(url:)\n    end\n  end\nend\n",
        "extending `FastMcp::Tool`",
        "`<name>_tool.rb`",
    ),
    "python": (
        "shop/handlers",
        ("order_handler.py", "refund_handler.py", "invoice_handler.py"),
        '"""A handler."""\n\n\nclass {Name}Handler(BaseHandler):\n    def handle(self, event):\n'
        "        return None\n",
        "extending `BaseHandler`",
        "`<name>_handler.py`",
    ),
    "typescript": (
        "src/services",
        ("order.service.ts", "refund.service.ts", "invoice.service.ts"),
        "export class {Name}Service extends BaseService {\n  async load(): Promise<void> {}\n}\n",
        "extending `BaseService`",
        "`<name>.service.ts`",
    ),
    "java": (
        "src/main/java/shop/web",
        ("OrderController.java", "RefundController.java", "InvoiceController.java"),
        "package shop.web;\n\npublic class {Name}Controller extends BaseController {\n}\n",
        "extending `BaseController`",
        "`<name>Controller.java`",
    ),
    "kotlin": (
        "app/src/main/kotlin/shop",
        ("OrderWorker.kt", "RefundWorker.kt", "InvoiceWorker.kt"),
        "package shop\n\nclass {Name}Worker(ctx: Context) : CoroutineWorker(ctx) {\n}\n",
        "extending `CoroutineWorker`",
        "`<name>Worker.kt`",
    ),
    "csharp": (
        "Shop/Controllers",
        ("OrderController.cs", "RefundController.cs", "InvoiceController.cs"),
        "namespace Shop;\n\npublic class {Name}Controller : ControllerBase\n{\n}\n",
        "extending `ControllerBase`",
        "`<name>Controller.cs`",
    ),
    "php": (
        "app/Http/Controllers",
        ("OrderController.php", "RefundController.php", "InvoiceController.php"),
        "<?php\n\nnamespace App;\n\nclass {Name}Controller extends Controller\n{\n}\n",
        "extending `Controller`",
        "`<name>Controller.php`",
    ),
    "rust": (
        "src/handlers",
        ("order_handler.rs", "refund_handler.rs", "invoice_handler.rs"),
        "pub struct {Name}Handler;\n\nimpl Handler for {Name}Handler {\n    fn handle(&self) {}\n}\n",
        "implementing `Handler`",
        "`<name>_handler.rs`",
    ),
    "elixir": (
        "lib/shop/workers",
        ("order_worker.ex", "refund_worker.ex", "invoice_worker.ex"),
        "defmodule Shop.Workers.{Name}Worker do\n  use Oban.Worker\n\n  def perform(job), do: :ok\n"
        "end\n",
        "using `Oban.Worker`",
        "`<name>_worker.ex`",
    ),
    "swift": (
        "Sources/Shop/Views",
        ("OrderView.swift", "RefundView.swift", "InvoiceView.swift"),
        'import SwiftUI\n\nstruct {Name}View: View {\n    var body: some View { Text("x") }\n}\n',
        "extending `View`",
        "`<name>View.swift`",
    ),
}
NAMES = ("Order", "Refund", "Invoice")


def _session(ecosystem: str, *, write_last: bool = True, bases: tuple[str, ...] = ()) -> Stream:
    folder, files, text, _, _ = SAMPLES[ecosystem]
    stream = Stream()
    stream.user("add one more like the others")
    for i, (name, file) in enumerate(zip(NAMES, files, strict=True)):
        body = text.replace("{Name}", name)
        if bases:
            body = body.replace(SAMPLES[ecosystem][3].split("`")[1], bases[i])
        path = f"{PROJECT}/{folder}/{file}"
        if write_last and i == len(files) - 1:
            stream.write(path, body)
        else:
            stream.read(path, _numbered(body))
    return stream


@pytest.mark.parametrize("ecosystem", sorted(SAMPLES))
def test_files_of_one_folder_on_one_base_state_the_folders_pattern(ecosystem: str) -> None:
    folder, files, _, base, ending = SAMPLES[ecosystem]
    (found,) = sibling_patterns(_session(ecosystem).events)
    assert found.folder == folder
    assert base in found.content and ending in found.content
    assert f"`{files[2]}` written the same way" in found.content
    assert found.content.endswith(".")


def test_the_shared_name_ending_and_methods_are_stated() -> None:
    (found,) = sibling_patterns(_session("python").events)
    assert "a type `<Name>Handler` extending `BaseHandler`, defining `handle`." in found.content


@pytest.mark.parametrize("ecosystem", ["ruby", "java"])
def test_three_files_read_are_enough_without_a_write(ecosystem: str) -> None:
    (found,) = sibling_patterns(_session(ecosystem, write_last=False).events)
    assert "written the same way" not in found.content


def test_two_files_are_not_a_pattern() -> None:
    stream = _session("ruby")
    stream.events[:] = [e for e in stream.events if "web_fetch" not in "".join(e.file_paths)]
    assert sibling_patterns(stream.events) == []


def test_files_on_different_bases_share_no_pattern() -> None:
    stream = _session("python", bases=("BaseHandler", "Thread", "BaseHandler"))
    assert sibling_patterns(stream.events) == []


def test_files_with_no_base_or_a_one_word_name_say_nothing() -> None:
    stream = Stream()
    for name in ("orders.py", "refunds.py", "invoices.py"):
        stream.read(f"{PROJECT}/shop/{name}", _numbered("class Orders(BaseHandler):\n    pass\n"))
    for name in ("a_util.py", "b_util.py", "c_util.py"):
        stream.read(f"{PROJECT}/shop/{name}", _numbered("def helper():\n    return 1\n"))
    assert sibling_patterns(stream.events) == []


def test_dependency_folders_and_partial_reads_do_not_count() -> None:
    stream = _session("ruby")
    for event in stream.events:
        if event.event_type == "tool_result" and "run_code" in "".join(event.file_paths):
            event.content["output"] = "     5→    def call(url:)\n     6→    end\n"
    assert sibling_patterns(stream.events) == []
    vendored = Stream()
    for name in NAMES:
        body = SAMPLES["ruby"][2].replace("{Name}", name)
        vendored.read(f"{PROJECT}/vendor/gems/{name.lower()}_tool.rb", _numbered(body))
    assert sibling_patterns(vendored.events) == []


async def test_the_rules_extractor_keeps_it_as_a_project_fact() -> None:
    found = by_key(await extract(_session("typescript")))
    fact = found["pattern:src/services/*.service.ts"]
    assert fact.type is MemoryType.PROJECT_FACT
    assert fact.file_paths == tuple(f"src/services/{f}" for f in SAMPLES["typescript"][1])


def test_import_lines_are_no_base() -> None:
    stream = Stream()
    for name in NAMES:
        body = f"<?php\n\nuse App\\Models\\{name};\n\nfunction show_{name.lower()}() {{}}\n"
        stream.read(f"{PROJECT}/app/views/{name.lower()}_view.php", _numbered(body))
    assert sibling_patterns(stream.events) == []
