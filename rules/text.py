"""Texts the players read (round reasons, refusals): English that can be said again in Spanish.

A `Text` is the English string itself (printed, stored and compared as
before) that also keeps its template and values. `to_json` gives both, so
the page shows it in its own language: the template is the key of the
page's catalogue (web/i18n.py), the values go into it, and values that are
texts themselves are translated first. Names and numbers stay as they are.

Templates use plain `{name}` fields only (the page fills them in the same
way): numbers are formatted before they go in.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class Text(str):
    """English text with the template and values it was made from."""

    template: str | None
    values: dict[str, Any]
    parts: tuple[Any, ...]
    sep: str

    def __new__(cls, template: str, /, **values: Any) -> Text:
        self = super().__new__(cls, template.format(**values))
        self.template, self.values, self.parts, self.sep = template, values, (), ""
        return self

    @classmethod
    def joined(cls, sep: str, parts: Iterable[Any]) -> Text:
        """Texts one after the other (`sep` between them), each translated on its own."""
        parts = tuple(parts)
        self = super().__new__(cls, sep.join(str(p) for p in parts))
        self.template, self.values, self.parts, self.sep = None, {}, parts, sep
        return self

    def to_json(self) -> dict[str, Any]:
        if self.template is None:
            return {"join": self.sep, "parts": [as_json(p) for p in self.parts]}
        out: dict[str, Any] = {"text": self.template}
        if self.values:
            out["values"] = {k: as_json(v) for k, v in self.values.items()}
        return out


def as_json(value: Any) -> Any:
    """A text as its template and values; anything else as it is (a name, a number)."""
    if isinstance(value, Text):
        return value.to_json()
    if isinstance(value, (int, float, str)) or value is None:
        return value
    return str(value)


def text_json(value: Any) -> dict[str, Any] | None:
    """The template form of a text to send beside its English, or None for a plain string."""
    return value.to_json() if isinstance(value, Text) else None


def names(players: Iterable[str]) -> str | Text:
    """Players named in a sentence: "A", "A and B", "A, B and C"."""
    players = list(players)
    if len(players) <= 1:
        return "".join(players)
    return Text("{names} and {last}", names=", ".join(players[:-1]), last=players[-1])


def said(key: str, value: Any) -> dict[str, Any]:
    """`{key: the English}`, and `{key}_i18n` its template form when it is a Text (JSON for a page)."""
    out: dict[str, Any] = {key: str(value)}
    if (form := text_json(value)) is not None:
        out[key + "_i18n"] = form
    return out


def text_of(exc: BaseException) -> str:
    """An error's message as raised: a Text keeps its template (str(exc) would lose it)."""
    return exc.args[0] if len(exc.args) == 1 and isinstance(exc.args[0], str) else str(exc)
