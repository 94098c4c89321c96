"""From a question to a computation: everything that reads the question's English, in the order a run uses it.

- :mod:`~vadaorchestra.agents.question.parse`: the question parsed by spaCy's English pipeline (tokens, lemmas,
  the dependency tree) into noun phrases, the relations between them, what is asked, numbers and clauses;
- :mod:`~vadaorchestra.agents.question.frame`: the question frame built from the parse and the catalog (what is
  asked, the entities and kinds of things named, conditions, relations, parts), read by every agent;
- :mod:`~vadaorchestra.agents.question.naming`: how the frame's words name a catalog's columns and tools;
- :mod:`~vadaorchestra.agents.question.compose` and :mod:`~vadaorchestra.agents.question.limits`: the frame turned
  into one query over the tools' outputs, or into a limit check along a chain of tools;
  :mod:`~vadaorchestra.agents.question.parts`: a question of several parts, one query each;
  :mod:`~vadaorchestra.agents.question.parent`: the thing one level up, of the kind asked ("Which area does X report
  to?": the same tool read for X and for its parent).

Nothing here imports a policy: the policies (offline, LLM) and the Verifier import this package.
"""
