"""The MCP tool surface through the SDK's in-memory client session: every tool, bad input, sessions, a fuzz."""

from __future__ import annotations

import functools
import json

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp_helpers import GAMMA, client, err, ok, snapshot

from vadaorchestra.mcp_server.server import BUILTIN_TOOLS, ReasoningServer


async def exposures(c) -> dict:
    for tool in ("get_loans", "get_credit_lines", "get_bank_exposures"):
        out = await ok(c, tool, **GAMMA)
    return out


# --- discovery ----------------------------------------------------------------------------------------------------------
@pytest.mark.anyio
async def test_every_catalog_tool_and_builtin_is_listed_with_a_flat_typed_schema(server):
    async with client(server) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
    assert set(tools) == set(server.catalog.tools) | set(BUILTIN_TOOLS)
    for t in tools.values():
        text = json.dumps(t.inputSchema)
        assert "$defs" not in text and "$ref" not in text, t.name
        assert t.description
    assert tools["get_loans"].inputSchema["properties"]["bank_name"]["anyOf"][0] == {"type": "string"}
    assert tools["get_loans"].inputSchema["required"] == ["bank_name"]
    assert "get_credit_lines" in tools["get_bank_exposures"].description


@pytest.mark.anyio
async def test_list_tools_and_get_dependencies_describe_the_catalog(server):
    async with client(server) as c:
        listed = {t["name"]: t for t in (await ok(c, "list_tools"))["tools"]}
        deps = await ok(c, "get_dependencies", tool="get_bank_exposures")
        none = await ok(c, "get_dependencies", tool="get_loans")
        unknown = await err(c, "get_dependencies", tool="get_nothing")
    exp = listed["get_bank_exposures"]
    assert exp["output_predicate"] == "exposure"
    assert exp["schema"] == [{"name": "bank", "type": "string"}, {"name": "borrower", "type": "string"},
                             {"name": "amount", "type": "float"}]
    assert exp["parameters"] == [{"name": "bank_name", "type": "string",
                                  "description": "Name of the lending bank, e.g. Bank Gamma"}]
    assert deps == {"tool": "get_bank_exposures", "dependencies": ["get_credit_lines", "get_loans"],
                    "run_order": ["get_credit_lines", "get_loans"]}
    assert none["dependencies"] == [] and none["run_order"] == []
    assert "unknown tool 'get_nothing'" in unknown and "get_loans" in unknown


# --- reasoning tools ------------------------------------------------------------------------------------------------
@pytest.mark.anyio
async def test_a_tool_call_materializes_its_output_with_cardinality_schema_and_preview(server):
    async with client(server) as c:
        out = await exposures(c)
    assert out["status"] == "ok" and out["output_predicate"] == "exposure" and out["cardinality"] == 4
    assert out["preview"][0] == {"bank": "Bank Gamma", "borrower": "DeepLogic Ltd", "amount": 13100000.0}
    assert out["elapsed_ms"] > 0 and out["engine"] == "duckdb" and out["truncated"] is False


@pytest.mark.anyio
async def test_invocations_of_one_tool_accumulate_in_its_output_predicate(server):
    async with client(server) as c:
        gamma = await ok(c, "get_loans", bank_name="Bank Gamma")
        delta = await ok(c, "get_loans", bank_name="Bank Delta")
        again = await ok(c, "get_loans", bank_name="Bank Delta")
        card = await ok(c, "get_cardinality", predicate="loans")
        described = await ok(c, "describe_predicate", predicate="loans")
    assert (gamma["facts"], gamma["cardinality"]) == (6, 6)
    assert (delta["facts"], delta["new_facts"], delta["cardinality"]) == (2, 2, 8)
    assert (again["new_facts"], again["cardinality"]) == (0, 8)
    assert card["cardinality"] == 8
    assert described["origin"]["tool"] == "get_loans"
    assert described["origin"]["invocations"] == [GAMMA, {"bank_name": "Bank Delta"}, {"bank_name": "Bank Delta"}]


@pytest.mark.anyio
async def test_a_tool_whose_dependency_has_not_run_fails_naming_the_dependency(server):
    async with client(server) as c:
        text = await err(c, "get_bank_exposures", **GAMMA)
        await ok(c, "get_loans", **GAMMA)
        text2 = await err(c, "get_bank_exposures", **GAMMA)
    assert "get_credit_lines" in text and "call get_credit_lines first" in text
    assert "'credit_lines'" in text2
    assert snapshot(server) == snapshot(server)  # still readable


@pytest.mark.anyio
async def test_a_recursive_tool_finds_the_ultimate_controller_through_an_ownership_chain(server):
    async with client(server) as c:
        deep = await ok(c, "get_ultimate_controller", company="DeepLogic Ltd")
        neural = await ok(c, "get_ultimate_controller", company="NeuralLinker SpA")
    assert deep["preview"] == [{"company": "DeepLogic Ltd", "controller": "Synthetix Global Fund"}]
    assert neural["preview"] == [{"company": "NeuralLinker SpA", "controller": "Synthetix Global Fund"}]
    assert neural["cardinality"] == 2


# --- decision support -----------------------------------------------------------------------------------------------
@pytest.mark.anyio
async def test_statistics_of_a_number_and_of_a_string_attribute(server):
    async with client(server) as c:
        await exposures(c)
        num = await ok(c, "get_statistics", predicate="exposure", attribute="amount")
        txt = await ok(c, "get_statistics", predicate="loans", attribute="borrower")
    assert (num["count"], num["distinct"], num["nulls"]) == (4, 4, 0)
    assert (num["min"], num["max"], num["mean"]) == (3000000.0, 13100000.0, 7900000.0)
    assert num["quantiles"]["p50"] == 7750000.0 and set(num["quantiles"]) == {"p5", "p25", "p50", "p75", "p95"}
    assert txt["type"] == "string" and txt["count"] == 6 and txt["distinct"] == 4
    assert txt["most_frequent"][:2] == [{"value": "DeepLogic Ltd", "count": 2}, {"value": "Orbit Foods", "count": 2}]


@pytest.mark.anyio
async def test_top_k_orders_filters_and_thresholds(server):
    async with client(server) as c:
        await exposures(c)
        top = await ok(c, "get_top_k", predicate="exposure", k=2, order_by="amount")
        low = await ok(c, "get_top_k", predicate="exposure", k=1, order_by="amount", descending=False)
        big = await ok(c, "get_top_k", predicate="exposure", k=10, order_by="amount",
                       threshold_attr="amount", threshold_op=">=", threshold_value=11.5e6)
        one = await ok(c, "get_top_k", predicate="loans", k=10, filter_attr="borrower",
                       filter_value="Orbit Foods", order_by="loan_id")
    assert [f["borrower"] for f in top["facts"]] == ["DeepLogic Ltd", "NeuralLinker SpA"]
    assert top["matching"] == 4 and top["cardinality"] == 4
    assert low["facts"] == [{"bank": "Bank Gamma", "borrower": "Orbit Foods", "amount": 3000000.0}]
    assert big["matching"] == 2
    assert [f["loan_id"] for f in one["facts"]] == ["L6", "L5"] and one["matching"] == 2


# --- data manipulation ----------------------------------------------------------------------------------------------
CHECK = """
limit(L) :- bank_info("Bank Gamma", C, P, L).
large(B, A, Share) :- exposure("Bank Gamma", B, A), bank_info("Bank Gamma", C, P, L), Share = A / C * 100, A > L * 0.5.
@output("large").
"""


@pytest.mark.anyio
async def test_validate_then_run_a_synthesized_threshold_check(server):
    async with client(server) as c:
        await exposures(c)
        await ok(c, "get_bank_info", **GAMMA)
        valid = await ok(c, "validate_program", program=CHECK)
        before = snapshot(server)
        assert before == snapshot(server)
        ran = await ok(c, "run_program", program=CHECK)
        described = await ok(c, "describe_predicate", predicate="large")
    assert valid["status"] == "valid" and valid["defines"] == ["large", "limit"]
    assert valid["reads"] == ["bank_info", "exposure"] and valid["output_predicate"] == "large"
    assert ran["output_predicate"] == "large" and ran["cardinality"] == 2
    assert {f["c0"]: round(f["c2"], 3) for f in ran["preview"]} == {"DeepLogic Ltd": 16.375, "NeuralLinker SpA": 14.375}
    assert ran["defined"] == [{"predicate": "large", "cardinality": 2}, {"predicate": "limit", "cardinality": 1}]
    assert described["origin"] == {"kind": "synthesized", "programs": [CHECK]}


@pytest.mark.anyio
async def test_strings_full_of_quotes_are_data_never_code(server):
    nasty = ["x'); DROP TABLE loans; --", 'say "hi"', "back\\slash", "tab\there", "new\nline", "'; SELECT 1; '"]
    facts = " ".join(f"odd({json.dumps(v)}, {i})." for i, v in enumerate(nasty))
    async with client(server) as c:
        await ok(c, "get_loans", **GAMMA)
        await ok(c, "run_program", program=facts + ' tagged(S, N) :- odd(S, N), loans(_, _, _, _).')
        for i, v in enumerate(nasty):
            hit = await ok(c, "get_top_k", predicate="tagged", filter_attr="c0", filter_value=v)
            assert [f["c1"] for f in hit["facts"]] == [i]
        miss = await ok(c, "get_top_k", predicate="loans", filter_attr="bank", filter_value="x' OR '1'='1")
        loans = await ok(c, "get_cardinality", predicate="loans")
        via_param = await ok(c, "get_shareholders", company="Alpha Corp\"); #")
    assert miss["matching"] == 0 and loans["cardinality"] == 6
    assert via_param["facts"] == 0


BAD = [
    ("run_program", {"program": "big(X :- exposure(_, X, _)."}, "<program>:1:"),
    ("run_program", {"program": "   "}, "empty"),
    ("run_program", {"program": '@bind("q", "csv", "data", "loans.csv"). r(X) :- q(X, _, _, _).'}, "@bind"),
    ("run_program", {"program": '@input("q"). r(X) :- q(X).'}, "@input"),
    ("run_program", {"program": '@tool("t", "d"). r(1).'}, "@tool"),
    ("run_program", {"program": 'loan_book("a", "b", "c", 1.0).'}, "base data"),
    ("run_program", {"program": 'exposure("a", "b", 1.0).'}, "output of tool 'get_bank_exposures'"),
    ("run_program", {"program": 'exposurE("a", "b", 1.0).'}, "get_bank_exposures"),
    ("run_program", {"program": 'lOans(B) :- exposure(B, _, _).'}, "get_loans"),
    ("run_program", {"program": "r(X) :- shareholder(X, _, _)."}, "call it first"),
    ("run_program", {"program": "r(X) :- nothing(X)."}, "'nothing' is not defined"),
    ("run_program", {"program": "r(B, Y) :- exposure(_, B, A), Y = A / 0."}, "division by zero"),
    ("run_program", {"program": "s(B) :- exposure(_, B, A). #F :- s(B), B = \"DeepLogic Ltd\"."}, "constraint"),
    ("validate_program", {"program": "r(X, Y) :- exposure(_, X, Y), Y > \"a\"."}, "1:31"),
    ("get_loans", {"bank_name": 5}, "string"),
    ("get_loans", {}, "bank_name"),
    ("get_nothing", {}, "Unknown tool"),
    ("get_cardinality", {"predicate": "nothing"}, "unknown predicate 'nothing'"),
    ("get_cardinality", {"predicate": "shareholder"}, "call get_shareholders first"),
    ("get_cardinality", {"predicate": "loan_book"}, "base data"),
    ("get_statistics", {"predicate": "exposure", "attribute": "amnt"}, "amount"),
    ("get_top_k", {"predicate": "exposure", "k": 0}, "k must be"),
    ("get_top_k", {"predicate": "exposure", "k": "ten"}, "k"),
    ("get_top_k", {"predicate": "exposure", "order_by": "x"}, "unknown order_by"),
    ("get_top_k", {"predicate": "exposure", "threshold_attr": "borrower", "threshold_op": ">",
                   "threshold_value": 1}, "not a number"),
    ("get_top_k", {"predicate": "exposure", "threshold_attr": "amount", "threshold_op": "; DROP",
                   "threshold_value": 1}, "unknown threshold_op"),
    ("get_top_k", {"predicate": "exposure", "threshold_attr": "amount"}, "together"),
    ("get_top_k", {"predicate": "exposure", "filter_attr": "amount", "filter_value": "big"}, "number"),
    ("describe_predicate", {"predicate": 'x"; DROP TABLE loans; --'}, "unknown predicate"),
]


@pytest.mark.anyio
async def test_bad_input_gets_an_actionable_error_and_leaves_the_workspace_unchanged(server):
    async with client(server) as c:
        await exposures(c)
        await ok(c, "run_program", program="s_prev(B) :- exposure(_, B, _).")
        before = snapshot(server)
        for tool, args, expected in BAD:
            text = await err(c, tool, **args)
            if expected is not None:
                assert expected in text, (tool, args, text)
            assert snapshot(server) == before, (tool, args)
        text = await err(c, "run_program", program="s_prev(B) :- exposure(_, B, _).")
        assert "already exists" in text
        assert snapshot(server) == before
        assert (await ok(c, "get_cardinality", predicate="exposure"))["cardinality"] == 4


# --- sessions ---------------------------------------------------------------------------------------------------------
@pytest.mark.anyio
async def test_two_sessions_calling_one_tool_concurrently_see_only_their_own_results(server):
    seen: dict[str, list] = {}

    async def session(bank: str) -> None:
        async with client(server) as c:
            await ok(c, "get_loans", bank_name=bank)
            await ok(c, "get_credit_lines", bank_name=bank)
            await ok(c, "get_bank_exposures", bank_name=bank)
            stats = await ok(c, "get_statistics", predicate="exposure", attribute="bank")
            seen[bank] = [v["value"] for v in stats["most_frequent"]]

    async with anyio.create_task_group() as tg:
        for bank in ("Bank Gamma", "Bank Delta"):
            tg.start_soon(session, bank)
    assert seen == {"Bank Gamma": ["Bank Gamma"], "Bank Delta": ["Bank Delta"]}
    assert server.sessions.workspaces() == []  # each session's workspace went with it
    assert list((server.sessions.folder).glob("*.duckdb")) == []


@pytest.mark.anyio
async def test_the_invocations_of_one_stage_run_concurrently_in_one_session(server):
    async with client(server) as c:
        async with anyio.create_task_group() as tg:
            for tool in ("get_loans", "get_credit_lines", "get_bank_info", "get_shareholders"):
                args = {"company": "Alpha Corp"} if tool == "get_shareholders" else GAMMA
                tg.start_soon(functools.partial(ok, c, tool, **args))
        out = await ok(c, "get_bank_exposures", **GAMMA)
    assert out["cardinality"] == 4


# --- fuzz -------------------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def live(catalog, tmp_path_factory):
    """One server and one client session in a background event loop, for hypothesis' synchronous examples."""
    server = ReasoningServer(catalog, workspace_dir=tmp_path_factory.mktemp("fuzz"))
    with anyio.from_thread.start_blocking_portal() as portal:
        c = portal.wrap_async_context_manager(client(server))
        session = c.__enter__()
        for tool in ("get_loans", "get_credit_lines", "get_bank_exposures"):
            portal.call(session.call_tool, tool, GAMMA)
        try:
            yield server, session, portal
        finally:
            c.__exit__(None, None, None)
            server.close()


values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30)
    | st.sampled_from(["exposure", "loans", "amount", "borrower", "Bank Gamma", ">", "'", '"', "x) :- y(", "1e999",
                       "r(X) :- exposure(_, X, _).", 'q("a\\"b").', "r(X) :- loans(X).", "t(X) :- t(X)."]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=5,
)
KEYS = ["bank_name", "company", "predicate", "attribute", "k", "order_by", "descending", "filter_attr",
        "filter_value", "threshold_attr", "threshold_op", "threshold_value", "tool", "program"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tool=st.sampled_from(sorted(BUILTIN_TOOLS) + ["get_loans", "get_bank_exposures", "get_shareholders"]),
       args=st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=8), values, max_size=5))
@pytest.mark.slow
def test_fuzzed_arguments_never_crash_the_server_and_errors_change_nothing(live, tool, args):
    server, session, portal = live
    before = snapshot(server)
    res = portal.call(session.call_tool, tool, args)
    if res.isError:
        assert res.content and res.content[0].text
        assert snapshot(server) == before
    listed = portal.call(session.list_tools)
    assert len(listed.tools) == len(server.catalog) + len(BUILTIN_TOOLS)


# --- explain ------------------------------------------------------------------------------------------------------------
@pytest.mark.anyio
async def test_explain_shows_a_group_sum_down_to_file_lines_and_the_control_chain(server):
    group = ('@output("group"). group(C, T) :- exposure(B, X, A), ultimate_controller(X, C), T = sum(A).')
    async with client(server) as c:
        await ok(c, "get_loans", bank_name="Bank Gamma")
        await ok(c, "get_credit_lines", bank_name="Bank Gamma")
        await ok(c, "get_bank_exposures", bank_name="Bank Gamma")
        await ok(c, "get_ultimate_controller", company={"each": "exposure.borrower", "where": {"bank": "Bank Gamma"}})
        await ok(c, "run_program", program=group)
        before = snapshot(server)
        out = await ok(c, "explain", predicate="group", fact=["Synthetix Global Fund", None])
        assert snapshot(server) == before  # explaining writes nothing
        tree = out["tree"]
        assert tree["kind"] == "aggregate" and "sum over 2 binding(s)" in tree["note"]
        text = json.dumps(tree)
        files = {(leaf["source"]["file"], leaf["source"].get("line")) for leaf in out["leaves"]}
        assert ("loans.csv", 2) in files and ("loans.csv", 3) in files  # L1 8M and L2 3.1M of DeepLogic Ltd
        assert ("ownership.csv", 2) in files and ("ownership.csv", 3) in files  # Synthetix -> Alpha -> DeepLogic
        assert "Alpha Corp" in text and "no fact matches not" in text  # the controller nobody controls
        missing = await ok(c, "explain", predicate="group", fact=["Nobody", None])
        assert missing["status"] == "not derived" and "does not hold" in missing["message"]
        assert "unknown predicate" in await err(c, "explain", predicate="nope", fact=[])
        assert "has 2 column(s)" in await err(c, "explain", predicate="group", fact=["x"])
        assert "is a float" in await err(c, "explain", predicate="group", fact=["x", "y"])
