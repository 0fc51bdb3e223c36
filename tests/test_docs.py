"""The documentation says what the code does: every link of the README and ``docs/`` leads somewhere, on
GitHub (relative files and their anchors) and in the portal (``/docs/`` pages); every API query parameter
the docs list is the one the endpoint takes; every ``manage.py`` command and option they name exists;
every environment variable the portal reads is in the configuration table."""

import argparse
import ast
import re
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core.management import get_commands, load_command_class
from markdown_it import MarkdownIt
from markdown_it.token import Token

from portal.docs.rendering import github_anchor, heading_text, page_files
from tests.samples import REPO

DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
PARSER = MarkdownIt("commonmark").enable("table")
# The options every Django command takes, which the docs do not list.
DJANGO_OPTIONS = {"-h", "--help", "--version", "-v", "--verbosity", "--settings", "--pythonpath", "--traceback",
                  "--no-color", "--force-color", "--skip-checks"}  # fmt: skip
OPTION = re.compile(r"(?<![\w-])(--?[a-z][a-z0-9-]*)")


def _tokens(path: Path) -> list[Token]:
    return PARSER.parse(path.read_text(encoding="utf-8"))


def _anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the file's headings (a repeated heading gets -1, -2)."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    tokens = _tokens(path)
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            anchor = github_anchor(heading_text(tokens[index + 1]))
            found.add(anchor if anchor not in seen else f"{anchor}-{seen[anchor]}")
            seen[anchor] = seen.get(anchor, 0) + 1
    return found


def _links(path: Path) -> list[str]:
    return [
        str(child.attrGet("href"))
        for token in _tokens(path)
        for child in token.children or ()
        if child.type == "link_open"
    ]


def _code(path: Path) -> list[str]:
    """The text of every code span and code block of the file."""
    texts = []
    for token in _tokens(path):
        if token.type in ("code_block", "fence"):
            texts += token.content.splitlines()
        texts += [child.content for child in token.children or () if child.type == "code_inline"]
    return texts


def _table(path: Path, heading: str) -> list[list[str]]:
    """The rows of the first table under ``heading``, each cell's Markdown source."""
    text = path.read_text(encoding="utf-8")
    section = text.split(f"\n## {heading}\n", 1)[1]
    rows = [line for line in section.split("\n\n## ", 1)[0].splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in re.split(r"(?<!\\)\|", row)[1:-1]] for row in rows[2:]]


def _spans(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


@pytest.mark.parametrize("path", DOCS, ids=lambda path: path.name)
def test_every_link_leads_to_a_file_and_anchor_that_exist(path):
    links = _links(path)
    for href in links:
        if href.startswith(("http://", "https://", "mailto:")):
            continue
        target, _, anchor = href.partition("#")
        file = (path.parent / target).resolve() if target else path
        assert file.is_file(), f"{path.name}: {href} names no file"
        # Links between the docs only, so the portal's pages can follow every one.
        assert file.suffix == ".md" and file in DOCS, f"{path.name}: {href} is not a documentation page"
        if anchor:
            assert anchor in _anchors(file), f"{path.name}: {href}: no heading with that anchor in {file.name}"


def test_the_readme_is_short_and_links_every_docs_page():
    readme = REPO / "README.md"
    assert len(readme.read_bytes()) < 15_000
    text = readme.read_text()
    assert "    make run " in text and "    make test " in text
    linked = {(REPO / href).resolve() for href in _links(readme)}
    assert set(DOCS[1:]) <= linked


@pytest.mark.django_db
def test_every_docs_page_renders_in_the_portal_with_its_links_followed(client):
    pages = page_files()
    assert set(pages) == {"index", *(path.stem for path in DOCS[1:])}
    rendered = {}
    for name in pages:
        url = "/docs/" if name == "index" else f"/docs/{name}/"
        response = client.get(url)
        assert response.status_code == 200, url
        assert "Content-Security-Policy" in response
        rendered[url] = response.content.decode()
    # Every link between pages is the portal's address of a page that has the anchor.
    for url, body in rendered.items():
        for href in re.findall(r'<a href="(/docs/[^"]*)"', body):
            page, _, anchor = href.partition("#")
            assert page in rendered, (url, href)
            if anchor:
                assert f'id="{anchor}"' in rendered[page], (url, href)
        assert ".md" not in "".join(re.findall(r'<a href="([^"]*)"', body)), url
    assert '<a href="/docs/api/">API</a>' in rendered["/docs/"]
    assert '<h2 id="query-parameters">Query parameters</h2>' in rendered["/docs/api/"]
    assert client.get("/docs/no-such-page/").status_code == 404


def _api_rows(method: str = "GET") -> dict[str, set[str]]:
    """The API's query parameters table: each endpoint's path and the parameters listed for it."""
    rows = {}
    for endpoint, listed in _table(REPO / "docs" / "api.md", "Query parameters"):
        asked, route = _spans(endpoint)[0].split(" ", 1)
        if asked == method:
            rows[route] = set(_spans(listed))
    return rows


def _taken(client, route: str) -> set[str]:
    """The parameters an endpoint takes, as its answer to an unknown one lists them."""
    response = client.get(route.replace("{id}", "1"), {"no_such_parameter": "1"})
    assert response.status_code == 400, route
    message = response.json()["error"]["fields"]["no_such_parameter"][0]
    return set(message.split("this endpoint takes ", 1)[1].rstrip(".").split(", "))


@pytest.mark.django_db
def test_every_endpoint_takes_exactly_the_parameters_the_api_page_lists(client):
    rows = _api_rows()
    assert rows["/api/v1/systems/"] >= {"name", "q"} and "system" not in rows["/api/v1/systems/"]
    for route, listed in rows.items():
        assert _taken(client, route) == listed | {"format"}, route


@pytest.mark.django_db
def test_an_upload_takes_exactly_the_form_fields_the_api_page_lists(client):
    client.force_login(get_user_model().objects.create_user("lab-uploader"))
    response = client.post("/api/v1/uploads/", {"no_such_label": "1"})
    assert response.status_code == 400
    message = response.json()["error"]["fields"]["no_such_label"][0]
    assert set(message.split("known: ", 1)[1].split(", ")) == _api_rows("POST")["/api/v1/uploads/"]


def _route_of(path: str, routes: set[str]) -> str | None:
    for route in routes:
        pattern = re.escape(route).replace(re.escape("{id}"), r"[^/]+")
        if re.fullmatch(pattern, path):
            return route
    return None


def test_every_api_address_in_the_docs_uses_parameters_its_endpoint_takes():
    rows = _api_rows()
    checked = 0
    for path in DOCS:
        for code in _code(path):
            for address in re.findall(r"/api/v1/[^\s`\"']*\?[^\s`\"']+", code):
                parts = urlsplit(address)
                route = _route_of(parts.path, set(rows))
                assert route is not None, f"{path.name}: {address}: no such endpoint in the API page's table"
                names = {name for name, _ in parse_qsl(parts.query, keep_blank_values=True)}
                assert names <= rows[route] | {"format"}, f"{path.name}: {address}"
                checked += 1
    assert checked >= 10


def _parser_options(name: str) -> tuple[set[str], dict[str, set[str]]]:
    """A command's options, and its subcommands' options (``team add``), as its argparse parser has them."""
    parser = load_command_class(get_commands()[name], name).create_parser("manage.py", name)
    options: set[str] = set()
    subcommands: dict[str, set[str]] = {}
    for action in parser._actions:
        options |= set(action.option_strings) - DJANGO_OPTIONS
        if isinstance(action, argparse._SubParsersAction):
            for sub, subparser in action.choices.items():
                subcommands[sub] = {o for a in subparser._actions for o in a.option_strings} - DJANGO_OPTIONS
    return options, subcommands


def test_the_commands_table_lists_every_command_of_the_project_with_its_options():
    rows = _table(REPO / "docs" / "operations.md", "Commands")
    documented = {_spans(command)[0]: _spans(arguments) for command, arguments, _ in rows}
    project = {name for name, app in get_commands().items() if app == "portal"}
    assert set(documented) == project
    for name, spans in documented.items():
        options, subcommands = _parser_options(name)
        if subcommands:
            for span in spans:
                sub = span.split()[0]
                assert sub in subcommands, (name, span)
                assert set(OPTION.findall(span)) == subcommands[sub], (name, span)
            assert {span.split()[0] for span in spans} == set(subcommands), name
        else:
            assert {option for span in spans for option in OPTION.findall(span)} == options, name


def test_every_command_line_in_the_docs_uses_options_the_command_takes():
    commands = get_commands()
    checked = 0
    for path in DOCS:
        for code in _code(path):
            for name, rest in re.findall(r"manage\.py ([a-z_]+)((?:[^`|;]|\|(?=\w))*)", code):
                assert name in commands, f"{path.name}: manage.py {name}: no such command"
                options, subcommands = _parser_options(name)
                words = rest.split()
                if subcommands and words and words[0] in subcommands:
                    options = subcommands[words[0]]
                used = {option.split("=")[0] for option in OPTION.findall(rest) if not option[1:].isdigit()}
                assert used <= options | DJANGO_OPTIONS, f"{path.name}: manage.py {name}{rest}"
                checked += 1
    assert checked >= 15


def _environment_read() -> set[str]:
    """The environment variables the portal reads (``os.environ.get("X")``, ``os.environ["X"]``, the
    settings' ``_flag("X", ...)``), and the tests' ``SAMPLES_DIR``."""
    names: set[str] = set()
    for path in [*(REPO / "portal").rglob("*.py"), REPO / "tests" / "samples.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
                read, name = ast.unparse(node.func), node.args[0].value
            elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
                read, name = ast.unparse(node.value) + "[]", node.slice.value
            else:
                continue
            if read in ("os.environ.get", "environ.get", "_flag", "os.environ[]", "environ[]"):
                names.add(str(name))
    # Django's own, and the switch to plain static file storage, which no deployment sets.
    return names - {"DJANGO_SETTINGS_MODULE", "ARRAYBENCH_TESTING"}


def test_the_configuration_table_lists_every_variable_the_portal_reads():
    rows = _table(REPO / "docs" / "operations.md", "Configuration")
    documented = {name for variable, *_ in rows for name in _spans(variable)}
    # EMAIL_FILE_PATH is told in the EMAIL_BACKEND row, where it applies.
    assert _environment_read() == documented | {"EMAIL_FILE_PATH"}
    assert "EMAIL_FILE_PATH" in " ".join(cell for row in rows for cell in row)
