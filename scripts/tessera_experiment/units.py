"""Quantities with units, as the netlist accepts them (platform/units.cpp)."""
import re

# unit -> (dimension, factor to the base unit); the same table as platform/units.cpp.
UNITS = {}
for _dim, _table in {
    "size": {"B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
             "KiB": 1024.0, "MiB": 1048576.0, "GiB": 1073741824.0, "TiB": 1099511627776.0},
    "frequency": {"Hz": 1, "kHz": 1e3, "KHz": 1e3, "MHz": 1e6, "GHz": 1e9},
    "time": {"fs": 1e-15, "ps": 1e-12, "ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1},
    "bandwidth": {"B/s": 1, "KB/s": 1e3, "MB/s": 1e6, "GB/s": 1e9, "TB/s": 1e12,
                  "KiB/s": 1024.0, "MiB/s": 1048576.0, "GiB/s": 1073741824.0, "TiB/s": 1099511627776.0},
}.items():
    for _unit, _factor in _table.items():
        UNITS[_unit] = (_dim, _factor)

_QUANTITY = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)\s*([A-Za-z/]+)\s*$")


class UnitError(ValueError):
    pass


def parse(text):
    """'64 KiB' -> ('size', 65536.0). Raises UnitError naming what is wrong."""
    m = _QUANTITY.match(text)
    if not m:
        raise UnitError(f"\"{text}\" is not a number followed by a unit (e.g. \"64 KiB\", \"1.5 GHz\")")
    number, unit = m.groups()
    if unit not in UNITS:
        raise UnitError(f"unknown unit \"{unit}\" in \"{text}\" (known: {', '.join(UNITS)})")
    dimension, factor = UNITS[unit]
    return dimension, float(number) * factor


def looks_like_quantity(text):
    """True when text starts with a number and goes on with letters: meant as a quantity."""
    return bool(re.match(r"^\s*[0-9.]+\s*[A-Za-z/]", text))
