"""How much of a claims package is plumbing and how much is mathematics (issue 17, item 2).

*Plumbing* is the code that wires a statement into the engine: the lines of every top-level
call that registers a claim (``register(...)`` or a module's ``register_*(...)``, not
``register_erratum``) without its LaTeX and prose strings (a string with a backslash or of 25
characters or more: the statement, its title, the locations, the instances), and the lines of
every function whose name says it decides (``decide``: handing records to a rule).
*Mathematics* is the rest of the functions (trials and the quantities they compute, exact
counterexamples) and the LaTeX and prose of the registrations and of module constants.
Docstrings, comments and blank lines count as neither.
"""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path


def _code_lines(source: str) -> set[int]:
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                              tokenize.DEDENT, tokenize.ENDMARKER):
            lines.update(range(token.start[0], token.end[0] + 1))
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Module)) and node.body:
            first = node.body[0]
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                lines -= set(range(first.lineno, first.end_lineno + 1))
    return lines


def _content_lines(node: ast.AST) -> set[int]:
    """The lines of the LaTeX and prose strings below ``node``."""
    lines: set[int] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and ("\\" in sub.value or len(sub.value) >= 25):
            lines.update(range(sub.lineno, sub.end_lineno + 1))
    return lines


def measure(*packages: Path) -> dict[str, int]:
    """``registrations`` (claims registered), ``plumbing`` and ``mathematics`` (lines) of the
    claims packages ``packages``."""
    out = {"registrations": 0, "plumbing": 0, "mathematics": 0}
    for package in packages:
        for path in sorted(package.rglob("*.py")):
            source = path.read_text()
            code = _code_lines(source)
            for node in ast.parse(source).body:
                span = set(range(node.lineno, node.end_lineno + 1)) & code
                call = node.value if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) else None
                name = getattr(call.func, "id", "") if call is not None else ""
                if name.startswith("register") and name != "register_erratum":
                    out["registrations"] += 1
                    content = _content_lines(node) & span
                    out["plumbing"] += len(span - content)
                    out["mathematics"] += len(content)
                elif isinstance(node, ast.FunctionDef):
                    out["plumbing" if "decide" in node.name else "mathematics"] += len(span)
                elif isinstance(node, ast.Assign):
                    out["mathematics"] += len(_content_lines(node) & span)
    return out
