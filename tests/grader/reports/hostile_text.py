"""Text a student controls (submission ids, case messages quoting their output, API messages), chosen to break
each kind of output a report is written in. Shared by the HTML browser test and the every-writer test."""

from __future__ import annotations

import copy
from typing import Any

HOSTILE = [
    # First, so it comes before any ">" in the old report's data: pasted raw into an attribute by the old
    # template's successive replacements, it became attributes and ran with no click (issue 31).
    "x autofocus tabindex=0 onfocus=window.pwned=1 y",
    "</script><script>window.pwned = 1</script>",                   # closes the data's script element
    '"><img src=x onerror="window.pwned = 1">',                      # leaves an attribute, adds an element
    "'><svg onload=\"window.pwned = 1\">",                           # the same with single quotes
    "<!--<script>",                                                  # script-data escape state
    "{{DATA}} {{BODY}} {{TITLE}} {{ title }} {% raw %}",             # the old and new templates' placeholders
    "=HYPERLINK(\"http://x\",\"y\")",                                # spreadsheet formulas
    "@SUM(1+1)", "+1+1", "-1+1", "\t=1", "\r=1",
    "\x1b]0;owned\x07\x1b[2J\x1b[31mred",                            # terminal: retitle, clear, recolour
    "nul\x00 bell\x07 vt\x0b ff\x0c del\x7f c1\x85\x9b",              # control characters illegal in XML 1.0
    "line\u2028sep\u2029para",                                       # JavaScript's line terminators
    "rtl\u202eexe.txt",                                              # bidirectional override
    "a | b\nsecond line",                                            # a Markdown cell's separator, a newline
    "&amp; &lt; ]]> <![CDATA[x]]>",                                  # entities and a CDATA end
    "${window.pwned = 1} javascript:window.pwned = 1",              # template literal, URL scheme
]


def hostile_document(document: dict[str, Any]) -> dict[str, Any]:
    """A results.json document with every student-controlled text replaced by hostile text: each submission's
    id, every case message, and API tests whose names are fixed but whose messages are hostile."""
    hostile = copy.deepcopy(document)
    for s_index, submission in enumerate(hostile["submissions"]):
        submission["id"] = f"{HOSTILE[s_index % len(HOSTILE)]} #{s_index}"
        for c_index, case in enumerate(submission["cases"]):
            case["message"] = HOSTILE[(s_index + c_index) % len(HOSTILE)]
            case["notes"] = [HOSTILE[(s_index + c_index + 1) % len(HOSTILE)]]
        submission["api"] = [{"name": f"board.test{k}", "group": "correctness", "title": "a test",
                              "passed": k % 2 == 0, "points": float(k % 2 == 0), "max_points": 1.0,
                              "message": text} for k, text in enumerate(HOSTILE)]
    return hostile
