"""Kernel names as nvcc mangles them (the Itanium C++ ABI): PyCUDA programs compiled with
``no_extern_c=True`` ask for ``_Z6kernelPf`` or ``_Z2ktIfLi3EEvPT_``. The emulator names
its kernels as the source writes them (``kernel``, ``kt<float, 3>``); ``candidates`` gives
the names a mangled one may be there under. It reads what kernels' names hold (nested
names, template arguments of built-in, pointer, class and literal kinds) and gives nothing
for anything else, so a name it cannot read is reported as not found, never guessed."""

from __future__ import annotations

_BUILTIN = {"v": "void", "b": "bool", "c": "char", "a": "signed char", "h": "unsigned char",
            "s": "short", "t": "unsigned short", "i": "int", "j": "unsigned int",
            "l": "long", "m": "unsigned long", "x": "long long", "y": "unsigned long long",
            "f": "float", "d": "double", "e": "long double", "n": "__int128",
            "o": "unsigned __int128", "w": "wchar_t"}
_LITERAL_SUFFIX = {"i": "", "j": "u", "l": "l", "m": "ul", "x": "ll", "y": "ull", "s": "",
                   "t": "", "c": "", "a": "", "h": ""}


class _Unreadable(Exception):
    pass


class _Reader:
    def __init__(self, text: str):
        self.s, self.i, self.subs = text, 0, []

    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else ""

    def take(self, n: int = 1) -> str:
        if self.i + n > len(self.s):
            raise _Unreadable
        t = self.s[self.i:self.i + n]
        self.i += n
        return t

    def number(self) -> int:
        j = self.i
        while self.peek().isdigit():
            self.i += 1
        if j == self.i:
            raise _Unreadable
        return int(self.s[j:self.i])

    def source_name(self) -> str:
        return self.take(self.number())

    def substitution(self) -> str:
        self.take()  # S
        if self.peek() == "t":
            self.take()
            return "std::" + self.source_name()
        j = self.i
        while self.peek() not in ("_", ""):
            self.i += 1
        seq = self.s[j:self.i]
        self.take()  # _
        k = 0 if seq == "" else int(seq, 36) + 1
        if k >= len(self.subs):
            raise _Unreadable
        return self.subs[k]

    def template_args(self) -> list[str]:
        self.take()  # I
        args = []
        while self.peek() != "E":
            if self.peek() == "L":
                self.take()
                kind = self.take()
                neg = self.peek() == "n"
                if neg:
                    self.take()
                value = self.number()
                self.take()  # E
                if kind == "b":
                    args.append("true" if value else "false")
                elif kind in _LITERAL_SUFFIX:
                    args.append(("-" if neg else "") + str(value) + _LITERAL_SUFFIX[kind])
                else:
                    raise _Unreadable
            else:
                args.append(self.type())
        self.take()
        return args

    def type(self) -> str:
        c = self.peek()
        if c in _BUILTIN:
            self.take()
            return _BUILTIN[c]
        if c in "PKVR":
            self.take()
            inner = self.type()
            t = {"P": inner + "*", "K": "const " + inner, "V": "volatile " + inner,
                 "R": inner + "&"}[c]
            self.subs.append(t)
            return t
        if c == "S":
            return self.substitution()
        if c == "N":
            t = self.nested()
            self.subs.append(t)
            return t
        if c.isdigit():
            t = self.source_name()
            self.subs.append(t)
            if self.peek() == "I":
                t += "<" + ", ".join(self.template_args()) + ">"
                self.subs.append(t)
            return t
        raise _Unreadable

    def nested(self) -> str:
        self.take()  # N
        parts: list[str] = []
        while self.peek() != "E":
            if self.peek() == "I" and parts:
                parts[-1] += "<" + ", ".join(self.template_args()) + ">"
            else:
                parts.append(self.source_name())
            self.subs.append("::".join(parts))
        self.take()
        return "::".join(parts)


def candidates(mangled: str) -> list[str]:
    """The names (most qualified first) under which a kernel mangled as ``mangled`` may be
    found; empty when it is not a mangled name this reads."""
    if not mangled.startswith("_Z"):
        return []
    r = _Reader(mangled[2:])
    try:
        if r.peek() == "N":
            name = r.nested()
        else:
            name = r.source_name()
            r.subs.append(name)
            if r.peek() == "I":
                name += "<" + ", ".join(r.template_args()) + ">"
    except (_Unreadable, ValueError):
        return []
    out = [name]
    base, sep, targs = name.partition("<")
    if "::" in base:
        out.append(base.rsplit("::", 1)[1] + sep + targs)
    if sep:
        # The source may write an unsigned or long argument without its suffix (kt<4>).
        import re
        out += [re.sub(r"\b(-?\d+)(?:u|l|ul|ll|ull)\b", r"\1", n) for n in out]
        out += [n.replace(", ", ",") for n in out]
    return list(dict.fromkeys(out))
