"""The vocabulary: every record the grader reads or writes, each declared once as a typed model.

Verdicts (:mod:`.verdicts`), API test results (:mod:`.apiresult`), case, submission and class results with
the build record (:mod:`.results`), ``assignment.toml`` (:mod:`.assignment`, :mod:`.apiconfig`,
:mod:`.paths`) and ``manifest.json`` (:mod:`.manifest`); :mod:`.loading` is the one translator of a
validation error into
``file::$.json.path: message``; :mod:`.schemas` generates the JSON Schema files in ``grader/schemas/`` from
the models (``python -m grader.model.schemas --write``), and a test fails when they drift;
:mod:`.schemacheck` checks data against the hand-written schemas (Gradescope's, Classroom's) in the same words.

Why pydantic (v2): one class states a field's type, default, constraint and description, and from it come
validation with a path for every error (``loc``), JSON output and the JSON Schema we publish; its core is
compiled (validating a class's results.json is faster than the compiled JSON Schema it replaces). msgspec is
leaner per object but its schema output and error paths are thinner (one error, no constraint messages to
translate), and attrs+cattrs generates no JSON Schema at all, so the schema files would stay hand-written.
Records are frozen, slotted pydantic dataclasses (:mod:`.base`), so a case result costs no more memory than
the plain dataclass it replaces.

The ground floor of the grader: imports only :mod:`grader.errors`, pydantic, jsonschema and the solver's core (the
default wordings of "unsolvable"); everything above may import it.
"""
