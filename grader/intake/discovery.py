"""Find the submissions in a folder: each immediate subfolder, or ``.zip`` file, is one.

A submission is named by its folder (or zip file stem), which is the student id; a folder
holding nothing but one zip (an LMS download) is that zip. Loose files named as an LMS's "download
all" names them (:mod:`grader.intake.lms_names`: ``lastname_123_456_solver.py``) are grouped into one
submission per student, named by the LMS's prefix (``lastname_123``). A folder with no submission is
refused, naming the files it ignored; so is a folder that is one student's submission, or that holds the class
one level down (:mod:`grader.intake.class_shape`). Zips
are extracted into a staging folder by :mod:`grader.intake.zips` (no path traversal, no
links, capped in count and size); a zip that cannot be extracted, however it is broken,
is that student's ``CE`` with a message. A folder or zip holding only one folder (plus
``__MACOSX`` litter) is unwrapped: the code is what is inside it (but a Python package
folder, such as ``solver/``, or a project's ``src/`` is part of the code's layout).

The submissions folder and its immediate entries are the TA's (a TA may link
``submissions/alice`` to a clone); nothing below an entry is followed: a lone child that
is a link is not unwrapped or extracted, and the build's copy
(:mod:`grader.intake.safe_copy`) leaves it out with a note naming it.
"""

from __future__ import annotations

import dataclasses
import os
import re
import stat
import warnings
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from grader.errors import SubmissionsError
from grader.intake import class_shape, lms_names, safe_copy, zips

MAX_ZIP_ENTRIES = zips.MAX_ZIP_ENTRIES
MAX_ZIP_BYTES = zips.MAX_ZIP_BYTES
IGNORED = zips.IGNORED_TOP


@dataclass(frozen=True)
class Submission:
    """One student's submission: its id and the folder holding its code (``None`` if unusable)."""

    id: str
    origin: Path
    root: Path | None
    problem: str | None = None
    """Why ``root`` is ``None``: the student's CE, or with ``fault`` the grader's own failure (JE)."""
    fault: bool = False
    left_out: tuple[str, ...] = ()
    """Entries of a zip left out (symbolic links), each a sentence naming it, for the feedback."""


def discover(submissions_dir: Path, staging: Path) -> list[Submission]:
    """The submissions in ``submissions_dir``, sorted by id; zips are extracted under ``staging``."""
    require_folder(submissions_dir)
    try:
        entries = sorted(submissions_dir.iterdir(), key=lambda p: p.name)
    except OSError as exc:
        raise SubmissionsError(f"{submissions_dir}: cannot list: {exc.strerror or exc}") from None
    found: dict[str, Submission] = {}
    loose: dict[str, list[tuple[Path, lms_names.LmsName]]] = {}
    ignored: list[str] = []
    receipts: list[str] = []
    for entry in entries:
        if entry.name.startswith(".") or entry.name in IGNORED:
            continue
        named = lms_names.parse(entry.name)
        if named is not None and not named.holds_code:  # Moodle's online text or comments beside the files
            receipts.append(entry.name)
            continue
        if named is not None and not entry.is_dir():
            loose.setdefault(named.group, []).append((entry, named))
            continue
        if entry.is_dir():
            try:
                root = unwrap(entry)
                inner = _lone_zip(root)
            except OSError as exc:  # one unreadable folder is that student's result, not a stopped batch
                sid = printable_id(entry.name)
                found.setdefault(sid, Submission(sid, entry, None, f"cannot read {entry}: {exc.strerror or exc}"))
                continue
            # An LMS download: the student's folder holds just the archive they uploaded.
            submission = (Submission(entry.name, entry, root) if inner is None
                          else dataclasses.replace(_from_zip(inner, staging / "zips" / entry.name), id=entry.name))
        elif entry.suffix.lower() == ".zip" and entry.is_file():
            submission = _from_zip(entry, staging / "zips" / entry.stem)
        elif _other_archive(entry.name) and entry.is_file():  # the student's, in a format not read: their CE
            submission = Submission(entry.name[:-len(_other_archive(entry.name))], entry, None,
                                    f"{entry.name} is a {_other_archive(entry.name)} archive: only .zip archives and "
                                    "folders are graded (hand in a .zip, or the TA extracts it into a folder "
                                    "named after the student)")
        else:
            ignored.append(entry.name)
            continue
        _add(found, submission)
    for group in sorted(loose):
        _add(found, _from_loose(group, loose[group], staging / "loose" / group))
    class_shape.require_class_shape(submissions_dir, [(s.id, s.origin, s.root) for s in found.values()])
    if not found:
        raise SubmissionsError(_nothing_found(submissions_dir, ignored + receipts))
    ignored = [name for name in ignored if not _TA_FILE.search(name)]  # a README or a roster is nobody's work
    if ignored:  # a student missing from the grades must not go unnoticed
        shown = ", ".join(printable_id(name) for name in ignored[:8]) + (" ..." if len(ignored) > 8 else "")
        warnings.warn(f"{submissions_dir}: {len(ignored)} entr{'y is' if len(ignored) == 1 else 'ies are'} not a "
                      f"submission and not graded ({shown}): a student's work should be a folder or .zip named "
                      "after them, or carry its LMS's download name", IgnoredEntries, stacklevel=2)
    return [found[key] for key in sorted(found)]


_TA_FILE = re.compile(r"^(readme|license|notes?)\b|\.(md|csv|tsv|json|toml|pdf|html?|xlsx?)$", re.IGNORECASE)
"""What a TA keeps beside the class (a README, a roster or gradebook, notes): not named as left out."""


class IgnoredEntries(UserWarning):
    """Entries of the submissions folder that are not graded (a loose file with no LMS name, a README)."""


OTHER_ARCHIVES = (".tar.gz", ".tar.bz2", ".tar.xz", ".tgz", ".tbz2", ".txz", ".tar", ".rar", ".7z", ".gz")


def _other_archive(name: str) -> str:
    """The archive suffix of a file in a format the grader does not extract ("" for any other file)."""
    return next((suffix for suffix in OTHER_ARCHIVES if name.lower().endswith(suffix) and len(name) > len(suffix)),
                "")


def _add(found: dict[str, Submission], submission: Submission) -> None:
    submission = dataclasses.replace(submission, id=printable_id(submission.id))
    if submission.id not in found:  # a folder and a zip with the same id: the folder (first by name) is graded
        found[submission.id] = submission


def _nothing_found(submissions_dir: Path, ignored: list[str]) -> str:
    shown = ", ".join(printable_id(name) for name in ignored[:12]) + (" ..." if len(ignored) > 12 else "")
    what = f"it holds only files that are not submissions ({len(ignored)}: {shown})" if ignored else "it is empty"
    return (f"{submissions_dir}: no submission to grade: {what}. Expected one folder or .zip per student, or files "
            "named as an LMS's download names them (Canvas lastname_12345_67890_solver.py, Moodle "
            "'First Last_1000703_assignsubmission_file_solver.py', Blackboard "
            "Assignment_username_attempt_2024-03-01-10-20-30_solver.py); for one student's loose files, put them "
            "in a folder named after the student")


def _from_loose(group: str, files: list[tuple[Path, lms_names.LmsName]], target: Path) -> Submission:
    """One student's loose LMS files as a submission: a lone zip is extracted, other files are copied under
    the names the student gave them (the LMS's receipts, which carry no student file, are left out)."""
    latest = max(named.order for _, named in files)
    files = [(path, named) for path, named in files if named.order == latest]  # Canvas keeps a resubmission too
    handed = [(path, named) for path, named in files if named.rest]
    if len(handed) == 1 and handed[0][1].rest.lower().endswith(".zip"):
        return dataclasses.replace(_from_zip(handed[0][0], target), id=group)
    if not handed:
        receipt = ", ".join(path.name for path, _ in files)
        return Submission(group, files[0][0], None, f"no file was handed in (only the LMS's receipt {receipt})")
    try:
        target.mkdir(parents=True)
        for path, named in handed:
            _copy_loose(path, target, named.rest)
    except (OSError, ValueError) as exc:
        return Submission(group, handed[0][0], None, f"cannot copy {handed[0][0].name}: {exc}")
    return Submission(group, handed[0][0], target)


def _copy_loose(path: Path, target: Path, name: str) -> None:
    """Copy one loose file by fd (never through a link), capped like a zip's contents."""
    if "/" in name or name in (".", ".."):
        raise ValueError(f"the file name {name!r} cannot be used")
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    with os.fdopen(fd, "rb") as source:
        if not stat.S_ISREG(os.fstat(source.fileno()).st_mode):
            raise ValueError("not a regular file")
        data = source.read(MAX_ZIP_BYTES + 1)
    if len(data) > MAX_ZIP_BYTES:
        raise ValueError(f"more than {MAX_ZIP_BYTES:,} bytes")
    with safe_copy.open_new(target, PurePosixPath(name)) as sink:
        sink.write(data)


def printable_id(name: str) -> str:
    """A folder or file name as a submission id: bytes that are not UTF-8 (which Python keeps as
    lone surrogates, and no report can write) shown as ``\\xNN``.

    >>> printable_id("bad\\udcffname"), printable_id("çağrı")
    ('bad\\\\xffname', 'çağrı')
    """
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def require_folder(submissions_dir: Path) -> None:
    """Fail early, before any work, when the submissions folder is not there."""
    if not submissions_dir.is_dir():
        found = "a file" if submissions_dir.exists() else "nothing"
        raise SubmissionsError(f"{submissions_dir}: expected a folder of submissions, found {found}")


def unwrap(folder: Path) -> Path:
    """Descend through folders that hold nothing but one folder (a zip's top-level directory)."""
    while True:
        children = [c for c in folder.iterdir() if c.name not in IGNORED and not c.name.startswith(".")]
        if len(children) == 1 and _real_dir(children[0]) and not class_shape.code_folder(children[0]):
            folder = children[0]
        else:
            return folder


def _lone_zip(folder: Path) -> Path | None:
    children = [c for c in folder.iterdir() if c.name not in IGNORED and not c.name.startswith(".")]
    if len(children) == 1 and _real_file(children[0]) and children[0].suffix.lower() == ".zip":
        return children[0]
    return None


def _real_dir(path: Path) -> bool:
    return stat.S_ISDIR(path.lstat().st_mode)


def _real_file(path: Path) -> bool:
    return stat.S_ISREG(path.lstat().st_mode)


def _from_zip(path: Path, target: Path) -> Submission:
    """One zip as a submission; a zip that cannot be extracted is that student's CE, never a stopped class."""
    try:
        left_out = zips.extract_zip(path, target)
    except zips.ZipProblem as exc:
        return Submission(path.stem, path, None, f"cannot extract {path.name}: {exc}")
    except zips.StagingError as exc:
        return Submission(path.stem, path, None, f"cannot extract {path.name}: {exc}", fault=True)
    try:
        return Submission(path.stem, path, unwrap(target), left_out=left_out)
    except OSError as exc:
        return Submission(path.stem, path, None, f"cannot read {path.name} once extracted: {exc.strerror or exc}",
                          fault=True)


extract_zip = zips.extract_zip
