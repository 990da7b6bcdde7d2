"""URL converters. `id`: a row id as the database can hold it (1 to 18 digits) — the stock
`int` converter takes any number of digits, and 10**30 then overflowed the database's integer
(a 500 instead of a 404, issue #13)."""

from __future__ import annotations


class RowIdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)
