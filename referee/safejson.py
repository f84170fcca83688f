"""JSON from outside (a request, a record file, a line on stdin): bounded, standard, one clear error.

Python's :func:`json.loads` accepts ``NaN`` and ``Infinity``, and recurses once per level of
nesting, so ``[[[[...]]]]`` 5000 deep raises :class:`RecursionError` instead of a parse error. Every
reader of user input goes through :func:`loads`, which refuses both (and bytes that are not UTF-8)
with a :class:`~referee.errors.NotationError` naming what is wrong.

Example:
    >>> loads('{"seed": 7}')
    {'seed': 7}
    >>> loads("[" * 100 + "]" * 100)
    Traceback (most recent call last):
    ...
    referee.errors.NotationError: JSON nested 100 deep (at most 32 levels)
    >>> loads('{"seed": Infinity}')
    Traceback (most recent call last):
    ...
    referee.errors.NotationError: not standard JSON: Infinity is not a number JSON allows
"""

from __future__ import annotations

import json
import re
from typing import Any

from referee.errors import NotationError

__all__ = ["MAX_DEPTH", "decode_utf8", "loads", "nesting"]

MAX_DEPTH = 32
"""The deepest nesting any of our formats needs is 3 (a deal: object, list of casinos, list of notes)."""

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def decode_utf8(data: bytes) -> str:
    r"""``data`` as text; bytes that are not UTF-8 raise :class:`NotationError` naming the first bad byte.

    Example:
        >>> decode_utf8(b"ok \xff")
        Traceback (most recent call last):
        ...
        referee.errors.NotationError: not UTF-8 text (byte 0xff at position 3)
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise NotationError(f"not UTF-8 text (byte 0x{data[error.start]:02x} at position {error.start})") from None


def nesting(text: str) -> int:
    """How deep ``text``'s brackets nest, strings left out (linear, no recursion)."""
    depth = deepest = 0
    for match in _BRACKET.finditer(_STRING.sub("", text)):
        if match.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _refuse_constant(name: str) -> Any:
    raise NotationError(f"not standard JSON: {name} is not a number JSON allows")


def loads(text: str | bytes, *, max_depth: int = MAX_DEPTH) -> Any:
    """Parses standard JSON nested at most ``max_depth`` deep.

    Raises:
        NotationError: for text that is not JSON, not UTF-8, nested too deep, or uses NaN/Infinity.
    """
    if isinstance(text, bytes | bytearray):
        text = decode_utf8(bytes(text))
    depth = nesting(text)
    if depth > max_depth:
        raise NotationError(f"JSON nested {depth} deep (at most {max_depth} levels)")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise NotationError(f"not JSON ({error.msg} at line {error.lineno} column {error.colno})") from None
