"""The app's icon set: small line drawings as SVG, bundled in the package as text.

Why strings in a module and not ``.svg`` files: nothing to find at run time
(frozen and sandboxed installs have no reliable resource path), and the
colour is filled in when an icon is drawn, so one drawing serves the light
and the dark theme. Drawn on a 24×24 grid with 1.75 px round strokes, in the
manner of the Lucide set (ISC licence), so the icons read as one family.
``{c}`` is replaced by the colour.
"""

from __future__ import annotations

_STROKE = ("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='{c}' "
           "stroke-width='1.75' stroke-linecap='round' stroke-linejoin='round'>")

GLYPHS: dict[str, str] = {
    "new": "<path d='M12 5v14M5 12h14'/>",
    "send": "<path d='M12 19V5M5.5 11.5 12 5l6.5 6.5'/>",
    "stop": "<rect x='6.5' y='6.5' width='11' height='11' rx='2' fill='{c}'/>",
    "attach": ("<path d='m21.4 11.1-9.2 9.2a6 6 0 0 1-8.5-8.5l8.6-8.6a4 4 0 0 1 5.7 5.7l-8.6 8.5"
               "a2 2 0 0 1-2.8-2.8l8.5-8.5'/>"),
    "search": "<circle cx='11' cy='11' r='7'/><path d='m20.5 20.5-4.3-4.3'/>",
    "preferences": ("<path d='M4 6h9M17 6h3M4 12h3M11 12h9M4 18h11M19 18h1'/>"
                    "<circle cx='15' cy='6' r='2'/><circle cx='9' cy='12' r='2'/>"
                    "<circle cx='17' cy='18' r='2'/>"),
    "connections": ("<path d='M12 22v-5M9 8V2M15 8V2'/>"
                    "<path d='M18 8v5a4 4 0 0 1-4 4h-4a4 4 0 0 1-4-4V8z'/>"),
    "vps": ("<circle cx='9' cy='7' r='4'/><path d='M3 21v-2a4 4 0 0 1 4-4h4a4 4 0 0 1 4 4v2'/>"
            "<path d='M16 3.1a4 4 0 0 1 0 7.8M21 21v-2a4 4 0 0 0-3-3.9'/>"),
    "help": ("<circle cx='12' cy='12' r='9.5'/><path d='M9.1 9a3 3 0 0 1 5.8 1c0 2-3 3-3 3'/>"
             "<path d='M12 17h.01'/>"),
    "light": ("<circle cx='12' cy='12' r='4'/><path d='M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4"
              "M2 12h2M20 12h2M6.3 17.7l-1.4 1.4M19.1 4.9l-1.4 1.4'/>"),
    "dark": "<path d='M12 3a6 6 0 0 0 9 9 9 9 0 1 1-9-9z'/>",
    "keyboard": ("<rect x='2' y='5' width='20' height='14' rx='2'/>"
                 "<path d='M6 9h.01M10 9h.01M14 9h.01M18 9h.01M8 13h.01M12 13h.01M16 13h.01M7 16h10'/>"),
    "switcher": "<path d='M13 2 4 14h8l-1 8 9-12h-8l1-8z'/>",
    "chat": "<path d='M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z'/>",
    "folder": ("<path d='M20 20a2 2 0 0 0 2-2V8a2 2 0 0 0-2-2h-7.9a2 2 0 0 1-1.7-.9L9.6 3.9"
               "A2 2 0 0 0 7.9 3H4a2 2 0 0 0-2 2v13a2 2 0 0 0 2 2z'/>"),
    "up": "<path d='m18 15-6-6-6 6'/>",
    "down": "<path d='m6 9 6 6 6-6'/>",
    "close": "<path d='M18 6 6 18M6 6l12 12'/>",
    "fork": ("<rect x='8' y='8' width='13' height='13' rx='2'/>"
             "<path d='M4 16a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h10a2 2 0 0 1 2 2'/>"),
    "usage": "<path d='M3 3v18h18'/><path d='M7 15l4-4 3 3 5-6'/>",
    "debug": "<path d='m8 9-4 3 4 3M16 9l4 3-4 3M13.5 5l-3 14'/>",
}


def svg(name: str, color: str) -> bytes:
    """The SVG document of glyph ``name`` drawn in ``color``; KeyError for an unknown name."""
    body = GLYPHS[name]
    return (_STROKE + body + "</svg>").replace("{c}", color).encode()
