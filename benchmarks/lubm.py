"""LUBM, the Lehigh University Benchmark, as Soufflé's example ``lubm`` gives it: 56 rules of the university
ontology over 30 base relations, 20 output relations.

Two sources of facts:

- :func:`conformance_facts`: the 103,074 facts of Soufflé's own test case (one university, 15 departments), as the
  public ``datalog-conformance`` suite harvested them (``pip install datalog-conformance``, a benchmark-only
  dependency), with the expected output of each relation;
- :func:`generate`: LUBM-shaped facts made here, seeded, in the proportions of that case (about 6,900 facts per
  department), for tests and for sizes the suite does not have.

The dialect's predicate names begin with a lowercase letter; LUBM's classes (``Person``) become ``person``. Soufflé
gets the same rules, with ``.decl`` lines (every column a symbol), ``.input`` for the base relations and ``.output``
for the 20 relations the suite checks.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from pathlib import Path

RULES = """\
degreeFrom(X,Y) :- hasAlumnus(Y,X).
hasAlumnus(X,Y) :- degreeFrom(Y,X).
employee(X) :- faculty(X).
faculty(X) :- professor(X).
professor(X) :- associateProfessor(X).
person(Y) :- member(_,Y).
professor(X) :- assistantProfessor(X).
professor(X) :- chair(X).
worksFor(X,Y) :- headOf(X,Y).
person(X) :- degreeFrom(X,_).
university(Y) :- degreeFrom(_,Y).
person(Y) :- hasAlumnus(_,Y).
teachingAssistant(X) :- person(X), teachingAssistantOf(X,Y), course(Y).
chair(X) :- person(X), headOf(X,Y), department(Y).
memberOf(X,Y) :- member(Y,X).
member(X,Y) :- memberOf(Y,X).
course(Y) :- teacherOf(_,Y).
university(X) :- hasAlumnus(X,_).
person(X) :- telephone(X,_).
organization(Y) :- subOrganizationOf(_,Y).
memberOf(X,Y) :- worksFor(X,Y).
person(X) :- employee(X).
person(X) :- advisor(X,_).
organization(X) :- member(X,_).
organization(X) :- department(X).
faculty(X) :- lecturer(X).
person(Y) :- publicationAuthor(_,Y).
professor(Y) :- advisor(_,Y).
work(X) :- course(X).
professor(X) :- fullProfessor(X).
degreeFrom(X,Y) :- doctoralDegreeFrom(X,Y).
teachingAssistant(X) :- teachingAssistantOf(X,_).
person(X) :- undergraduateDegreeFrom(X,_).
organization(X) :- university(X).
person(X) :- doctoralDegreeFrom(X,_).
university(Y) :- doctoralDegreeFrom(_,Y).
course(Y) :- teachingAssistantOf(_,Y).
university(Y) :- undergraduateDegreeFrom(_,Y).
degreeFrom(X,Y) :- mastersDegreeFrom(X,Y).
person(X) :- graduateStudent(X).
person(X) :- researchAssistant(X).
student(X) :- undergraduateStudent(X).
degreeFrom(X,Y) :- undergraduateDegreeFrom(X,Y).
publication(X) :- publicationAuthor(X,_).
person(X) :- mastersDegreeFrom(X,_).
organization(X) :- researchGroup(X).
faculty(X) :- teacherOf(X,_).
person(X) :- chair(X).
employee(X) :- person(X), worksFor(X,Y), organization(Y).
course(X) :- graduateCourse(X).
student(X) :- person(X), takesCourse(X,Y), course(Y).
person(X) :- teachingAssistant(X).
organization(X) :- subOrganizationOf(X,_).
person(X) :- student(X).
person(X) :- emailAddress(X,_).
subOrganizationOf(X,Z) :- subOrganizationOf(X,Y), subOrganizationOf(Y,Z).
"""

OUTPUTS = ("university", "person", "employee", "faculty", "professor", "course", "organization", "chair", "work",
           "lecturer", "student", "researchGroup", "publication", "teachingAssistant", "hasAlumnus", "degreeFrom",
           "member", "subOrganizationOf", "worksFor", "memberOf")

BASE = {  # the base relations and their arities
    "lecturer": 1, "name": 2, "mastersDegreeFrom": 2, "graduateStudent": 1, "subOrganizationOf": 2,
    "doctoralDegreeFrom": 2, "undergraduateDegreeFrom": 2, "takesCourse": 2, "university": 1, "teacherOf": 2,
    "worksFor": 2, "emailAddress": 2, "researchInterest": 2, "graduateCourse": 1, "publication": 1, "telephone": 2,
    "associateProfessor": 1, "undergraduateStudent": 1, "teachingAssistantOf": 2, "publicationAuthor": 2,
    "researchAssistant": 1, "fullProfessor": 1, "assistantProfessor": 1, "teachingAssistant": 1, "advisor": 2,
    "memberOf": 2, "researchGroup": 1, "department": 1, "course": 1, "headOf": 2,
}

Facts = Mapping[str, list[tuple[str, ...]]]


def _lower(name: str) -> str:
    return name[0].lower() + name[1:]


def conformance_facts() -> tuple[dict[str, list[tuple[str, ...]]], dict[str, set[tuple[str, ...]]]]:
    """The facts of the suite's ``souffle_lubm_*`` case and the expected rows of each checked relation. Raises
    ImportError without ``datalog-conformance``. Reading its 17 MB of YAML takes about 10 s."""
    from importlib import resources

    import datalog_conformance  # noqa: F401  (the package holding the case)
    import yaml

    path = resources.files("datalog_conformance").joinpath("_tests/recursion/souffle_example_lubm.yaml")
    with path.open(encoding="utf-8") as fh:
        doc = yaml.load(fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    tests = doc["tests"]
    facts = {_lower(p): [tuple(r) for r in rows] for p, rows in tests[0]["program"]["facts"].items()}
    expected = {_lower(p): {tuple(r) for r in rows} for t in tests for p, rows in t["expect"].items()}
    return facts, expected


def generate(departments: int = 15, seed: int = 20240607) -> dict[str, list[tuple[str, ...]]]:
    """LUBM-shaped facts: one university per 15 departments, each department with its faculty, students, courses,
    research groups and publications in the proportions of the suite's case; degrees from 1,000 universities."""
    rng = random.Random(seed)
    out: dict[str, list[tuple[str, ...]]] = {p: [] for p in BASE}

    def add(pred: str, *values: str) -> None:
        out[pred].append(values)

    universities = 1000
    for d in range(departments):
        u = d // 15
        uni = f"<http://www.University{u}.edu>"
        if d % 15 == 0:
            add("university", uni)
            add("name", uni, f"University{u}")
        dept = f"<http://www.Department{d % 15}.University{u}.edu>"
        base = dept[:-1]
        add("department", dept)
        add("subOrganizationOf", dept, uni)
        add("name", dept, f"Department{d % 15}")

        def person(kind: str, i: int, base: str = base, where: str = f"Department{d % 15}.University{u}") -> str:
            p = f"{base}/{kind}{i}>"
            add("name", p, f"{kind}{i}")
            add("emailAddress", p, f"{kind}{i}@{where}.edu")
            add("telephone", p, "xxx-xxx-xxxx")
            return p

        def degrees(p: str, kinds: tuple[str, ...]) -> None:
            for kind in kinds:
                add(kind, p, f"<http://www.University{rng.randrange(universities)}.edu>")

        courses = [f"{base}/Course{i}>" for i in range(rng.randint(50, 60))]
        grad_courses = [f"{base}/GraduateCourse{i}>" for i in range(rng.randint(50, 56))]
        for c in courses:
            add("course", c)
            add("name", c, c.rsplit("/", 1)[1][:-1])
        for c in grad_courses:
            add("graduateCourse", c)
            add("name", c, c.rsplit("/", 1)[1][:-1])
        free = courses + grad_courses
        rng.shuffle(free)
        faculty: list[str] = []
        professors: list[str] = []
        for kind, (lo, hi) in (("FullProfessor", (7, 10)), ("AssociateProfessor", (10, 14)),
                               ("AssistantProfessor", (8, 11)), ("Lecturer", (5, 7))):
            for i in range(rng.randint(lo, hi)):
                p = person(kind, i)
                add(_lower(kind), p)
                add("worksFor", p, dept)
                degrees(p, ("undergraduateDegreeFrom", "mastersDegreeFrom", "doctoralDegreeFrom"))
                if kind != "Lecturer":
                    add("researchInterest", p, f"Research{rng.randrange(30)}")
                    professors.append(p)
                faculty.append(p)
                for _ in range(rng.randint(1, 2)):
                    if free:
                        add("teacherOf", p, free.pop())
                for k in range(rng.randint(0 if kind == "Lecturer" else 5, 5 if kind == "Lecturer" else 15)):
                    pub = f"{p[:-1]}/Publication{k}>"
                    add("publication", pub)
                    add("publicationAuthor", pub, p)
        add("headOf", professors[0], dept)
        taught = [c for c in courses + grad_courses if c not in free]
        taught_ug = [c for c in taught if "/Course" in c] or courses
        taught_grad = [c for c in taught if "/GraduateCourse" in c] or grad_courses
        for i in range(len(faculty) * rng.randint(8, 14)):
            s = person("UndergraduateStudent", i)
            add("undergraduateStudent", s)
            add("memberOf", s, dept)
            for c in rng.sample(taught_ug, min(len(taught_ug), rng.randint(2, 4))):
                add("takesCourse", s, c)
            if rng.random() < 0.2:
                add("advisor", s, rng.choice(professors))
        for i in range(len(faculty) * rng.randint(3, 4)):
            s = person("GraduateStudent", i)
            add("graduateStudent", s)
            add("memberOf", s, dept)
            degrees(s, ("undergraduateDegreeFrom",))
            add("advisor", s, rng.choice(professors))
            for c in rng.sample(taught_grad, min(len(taught_grad), rng.randint(1, 3))):
                add("takesCourse", s, c)
            if rng.random() < 0.25:
                add("teachingAssistant", s)
                add("teachingAssistantOf", s, rng.choice(taught_ug))
            elif rng.random() < 0.3:
                add("researchAssistant", s)
            if rng.random() < 0.5:
                pub = rng.choice(out["publication"][-50:])[0]
                add("publicationAuthor", pub, s)
        for g in range(rng.randint(10, 20)):
            group = f"{base}/ResearchGroup{g}>"
            add("researchGroup", group)
            add("subOrganizationOf", group, dept)
    return out


def _string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def program_text(facts: Facts) -> str:
    """The program in the dialect: the facts inline, one a line, then the rules and an @output per checked
    relation."""
    lines = [f"{p}({', '.join(map(_string, row))})." for p, rows in facts.items() for row in rows]
    return "\n".join(lines) + "\n" + RULES + "".join(f'@output("{o}").\n' for o in OUTPUTS)


def souffle_text() -> str:
    """The program for ``souffle -F facts -D out``: every column a symbol, the base relations read from
    ``<name>.facts``, the checked ones written to ``<name>.csv``."""
    arity = dict(BASE)
    for m in re.finditer(r"([a-z][A-Za-z]*)\(([^)]*)\)", RULES):
        arity.setdefault(m.group(1), m.group(2).count(",") + 1)
    decls = [f".decl {p}({', '.join(f'a{i}:symbol' for i in range(n))})" for p, n in sorted(arity.items())]
    return "\n".join(decls + [f".input {p}" for p in sorted(BASE)] + [f".output {o}" for o in OUTPUTS]) + "\n" + RULES


def write_facts(folder: Path, facts: Facts) -> None:
    """One tab-separated ``<name>.facts`` file per base relation (every base relation, empty ones too)."""
    folder.mkdir(parents=True, exist_ok=True)
    for pred in BASE:
        rows = facts.get(pred, [])
        (folder / f"{pred}.facts").write_text("".join("\t".join(r) + "\n" for r in rows), encoding="utf-8")


def read_outputs(folder: Path) -> dict[str, set[tuple[str, ...]]]:
    """What ``souffle -D folder`` wrote for each checked relation."""
    return {o: {tuple(line.split("\t")) for line in (folder / f"{o}.csv").read_text(encoding="utf-8").splitlines()}
            for o in OUTPUTS}
