#!/usr/bin/env python3
"""Lints the status page (Sources/BeaconControl/Status/Resources/status.html) as what it is.

The page is one self-contained HTML document embedded in beacond at build time and served with
the Content-Security-Policy of StatusPage.swift, read from that file here. Checked, with the
standard library's html.parser:

- HTML: a doctype, then every element that is not void closed, in order (no end tag left open,
  none stray or crossed); no attribute twice on an element; no id twice in the document; `<html
  lang>` and `<meta charset="utf-8">`.
- The CSP: a `<script src>` / `<link rel=stylesheet>` only where script-src / style-src allow a
  source ('self' or a host), inline `<script>` / `<style>` / `style=` only with 'unsafe-inline';
  no eval or `new Function` without 'unsafe-eval'; the URLs the script fetches (`fetch`,
  `EventSource`, `WebSocket`) and the images of `src`/`href` of its own origin or `data:` as
  connect-src / img-src say; no `<base>` with base-uri 'none', no `<form>` with form-action
  'none', nothing that default-src 'none' leaves without a source (frames, objects, media,
  fonts, CSS `@import`).
- The page's own rules: behaviour is added by its script, never by `on…=` attributes or
  `javascript:` URLs; nothing is written as HTML (`innerHTML`, `outerHTML`,
  `insertAdjacentHTML`, `document.write`): everything shown is a text node.
- The script's syntax with `node --check` when node is installed (else said and skipped); the
  style's braces and comments balanced.

Run by `make lint`; exits 1 with file:line:column for each problem.
"""
import html.parser
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

root = pathlib.Path(__file__).resolve().parent.parent
status = root / "Sources" / "BeaconControl" / "Status"
page_path = status / "Resources" / "status.html"
swift_path = status / "StatusPage.swift"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# Elements default-src 'none' leaves without a source (the page's CSP names no frame-, object-,
# media- or font-src).
UNSOURCED = {"iframe", "frame", "object", "embed", "audio", "video", "source", "track", "portal"}
problems = []


def problem(line, column, message):
    problems.append(f"{page_path.relative_to(root)}:{line}:{column + 1}: {message}")


def content_security_policy():
    """The directives of StatusPage.contentSecurityPolicy: {name: [sources]}."""
    text = swift_path.read_text()
    match = re.search(r"static let contentSecurityPolicy\s*=\s*((?:\s*\+?\s*\"[^\"\n]*\")+)", text)
    if not match:
        sys.exit(f"{swift_path.relative_to(root)}: cannot find `static let contentSecurityPolicy = \"…\"`")
    policy = "".join(re.findall(r"\"([^\"\n]*)\"", match.group(1)))
    directives = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


csp = content_security_policy()


def sources(directive):
    """A fetch directive's sources, falling back on default-src."""
    return csp.get(directive, csp.get("default-src", []))


def allows_hosted(directive):
    """Whether the directive allows any source by URL ('self', a scheme, a host)."""
    return any(not s.startswith("'") or s == "'self'" for s in sources(directive) if s != "'none'")


def allows_url(directive, url):
    """Whether a URL in the page (a literal) may be loaded under the directive."""
    allowed = sources(directive)
    if url.startswith("data:"):
        return "data:" in allowed
    if re.match(r"^[a-z][a-z0-9+.-]*:|^//", url, re.I):
        return any(not s.startswith("'") and url.startswith(s.rstrip("*")) for s in allowed)
    return "'self'" in allowed  # relative: the page's own origin


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open = []  # (tag, line, column)
        self.ids = {}
        self.doctype = False
        self.blocks = []  # (kind, line, text)
        self.current = None
        self.charset = False
        self.lang = False

    def handle_decl(self, decl):
        if decl.lower() == "doctype html":
            self.doctype = True

    def handle_starttag(self, tag, attrs):
        line, column = self.getpos()
        self.check_element(tag, attrs, line, column)
        if tag in ("script", "style"):
            self.current = (tag, line, [])
        if tag not in VOID:
            self.open.append((tag, line, column))

    def handle_startendtag(self, tag, attrs):
        line, column = self.getpos()
        self.check_element(tag, attrs, line, column)
        if tag not in VOID:
            problem(line, column, f"<{tag}/> is not a void element: HTML ignores the slash and leaves it open")
            self.open.append((tag, line, column))

    def handle_endtag(self, tag):
        line, column = self.getpos()
        if tag in VOID:
            problem(line, column, f"</{tag}>: {tag} is a void element, it has no end tag")
            return
        if not self.open:
            problem(line, column, f"</{tag}> closes nothing")
            return
        if self.open[-1][0] != tag:
            opened = self.open[-1]
            problem(line, column, f"</{tag}> where <{opened[0]}> of line {opened[1]} is still open")
            if any(t == tag for t, _, _ in self.open):
                while self.open and self.open[-1][0] != tag:
                    self.open.pop()
            else:
                return
        self.open.pop()
        if tag in ("script", "style") and self.current:
            kind, start, parts = self.current
            self.blocks.append((kind, start, "".join(parts)))
            self.current = None

    def handle_data(self, data):
        if self.current:
            self.current[2].append(data)

    def check_element(self, tag, attrs, line, column):
        names = [name for name, _ in attrs]
        for name in {n for n in names if names.count(n) > 1}:
            problem(line, column, f"<{tag}> has the attribute {name} twice")
        values = dict(attrs)
        if "id" in values:
            if values["id"] in self.ids:
                problem(line, column, f'id="{values["id"]}" again (first on line {self.ids[values["id"]]})')
            self.ids.setdefault(values["id"], line)
        if tag == "html" and values.get("lang"):
            self.lang = True
        if tag == "meta" and (values.get("charset") or "").lower() == "utf-8":
            self.charset = True
        for name, value in attrs:
            if name.startswith("on"):
                problem(line, column, f"<{tag} {name}=…>: add behaviour from the script (addEventListener)")
            if value and value.strip().lower().startswith("javascript:"):
                problem(line, column, f"<{tag} {name}=\"javascript:…\">: add behaviour from the script")
            if name == "style" and "'unsafe-inline'" not in sources("style-src"):
                problem(line, column, "a style attribute, which style-src does not allow ('unsafe-inline')")
        if tag == "script":
            if "src" in values and not allows_hosted("script-src"):
                problem(line, column, "<script src>: script-src allows no source to load a script from")
        if tag == "link" and "stylesheet" in (values.get("rel") or "").lower().split():
            if not allows_hosted("style-src"):
                problem(line, column, "<link rel=stylesheet>: style-src allows no source to load a style sheet from")
        if tag in ("img", "image", "input") and (values.get("src") or values.get("href")):
            url = values.get("src") or values.get("href")
            if not allows_url("img-src", url):
                problem(line, column, f"<{tag}> loads {url}, which img-src ({' '.join(sources('img-src'))}) does not allow")
        if tag in UNSOURCED:
            problem(line, column, f"<{tag}>: default-src 'none' gives it no source")
        if tag == "base" and csp.get("base-uri") == ["'none'"]:
            problem(line, column, "<base>: base-uri is 'none'")
        if tag == "form" and csp.get("form-action") == ["'none'"]:
            problem(line, column, "<form>: form-action is 'none', it could not be submitted")


def check_script(start, text):
    def at(offset):
        return start + text.count("\n", 0, offset)

    if "'unsafe-inline'" not in sources("script-src"):
        problem(start, 0, "an inline <script>, which script-src does not allow ('unsafe-inline')")
    if "'unsafe-eval'" not in sources("script-src"):
        for match in re.finditer(r"\beval\s*\(|\bnew\s+Function\s*\(", text):
            problem(at(match.start()), 0, f"{match.group(0)}…): script-src does not allow 'unsafe-eval'")
    for match in re.finditer(r"\.(innerHTML|outerHTML)\b|\binsertAdjacentHTML\b|\bdocument\.write(ln)?\b", text):
        problem(at(match.start()), 0, f"{match.group(0)}: the page shows text as text nodes, never as HTML")
    for match in re.finditer(r"\b(fetch|EventSource|WebSocket)\s*\(\s*([\"'`])([^\"'`]*)\2", text):
        if not allows_url("connect-src", match.group(3)):
            problem(at(match.start()), 0, f"{match.group(1)}({match.group(3)!r}): connect-src "
                    f"({' '.join(sources('connect-src'))}) does not allow it")
    # Any other absolute URL in the script is a load the CSP refuses; the SVG namespace is a name.
    for match in re.finditer(r"[\"'`]((?:https?|wss?):)?//[^\"'`]*[\"'`]", text):
        url = match.group(0)[1:-1]
        if url != "http://www.w3.org/2000/svg" and not allows_url("connect-src", url):
            problem(at(match.start()), 0, f"{url}: the page may load nothing but its own API")
    node = shutil.which("node")
    if not node:
        print("check-status-page: node is not installed; the script's syntax is not checked", file=sys.stderr)
        return
    # The script at its own lines, so that node's line numbers are the page's.
    with tempfile.NamedTemporaryFile("w", suffix=".js", delete=False) as file:
        file.write("\n" * (start - 1) + text)
    try:
        run = subprocess.run([node, "--check", file.name], capture_output=True, text=True)
    finally:
        pathlib.Path(file.name).unlink()
    if run.returncode != 0:
        message = run.stderr.replace(file.name, str(page_path.relative_to(root))).strip()
        problems.append(f"node --check of the page's script:\n{message}")


def check_style(start, text):
    if "'unsafe-inline'" not in sources("style-src"):
        problem(start, 0, "an inline <style>, which style-src does not allow ('unsafe-inline')")
    without = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    if "/*" in without:
        problem(start + text.count("\n", 0, text.rfind("/*")), 0, "a CSS comment that does not end")
    depth = 0
    for line_number, line in enumerate(without.split("\n"), start):
        for character in line:
            depth += {"{": 1, "}": -1}.get(character, 0)
            if depth < 0:
                problem(line_number, 0, "a } that closes no CSS block")
                depth = 0
    if depth:
        problem(start, 0, f"{depth} CSS block(s) left open")
    for match in re.finditer(r"@import\b|@font-face\b", without):
        problem(start + without.count("\n", 0, match.start()), 0,
                f"{match.group(0)}: default-src 'none' gives it no source")
    for match in re.finditer(r"url\(\s*[\"']?([^\"')]*)", without):
        if not allows_url("img-src", match.group(1)):
            problem(start + without.count("\n", 0, match.start()), 0, f"url({match.group(1)}): img-src does not allow it")


page = Page()
page.feed(page_path.read_text(encoding="utf-8"))
page.close()
if not page.doctype:
    problem(1, 0, "no <!doctype html> (the browser would render in quirks mode)")
if not page.lang:
    problem(1, 0, "no <html lang=…>")
if not page.charset:
    problem(1, 0, 'no <meta charset="utf-8">')
for tag, line, column in page.open:
    problem(line, column, f"<{tag}> is never closed")
for kind, start, text in page.blocks:
    (check_script if kind == "script" else check_style)(start, text)
if problems:
    print("\n".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"check-status-page: {page_path.relative_to(root)} is well formed and keeps to its CSP")
