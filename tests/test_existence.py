"""Yes/no questions about things rather than a named one ("Is any vessel based at X a freighter?", "Are there
freighters at X?"), and the follow-up part "and is any of them a freighter?": answered yes or no from the list the
kind restricts, never as the list alone. Two fresh questions of this shape were answered as a one-part list and
verified; "List the catamarans ..." was answered with every vessel of the port, the plural read as a name. Whole runs,
offline, on a small fleet catalog of our own."""

from __future__ import annotations

import pytest
from catalogs import ask

FLEET = '''% the vessels based at a port
@tool("get_port_fleet", "Fleet based at a port: each vessel with its vessel_type (ferry, catamaran or freighter) and its passenger capacity.").
@param("port_name", "string", "Name of the port").
@bind("vessel_table", "csv", "data", "vessels.csv").
@mapping("vessel_table", 0, "vessel", "string"). @mapping("vessel_table", 1, "vessel_type", "string").
@mapping("vessel_table", 2, "home_port", "string"). @mapping("vessel_table", 3, "passenger_capacity", "int").
@output("port_vessel").
@mapping("port_vessel", 0, "port", "string"). @mapping("port_vessel", 1, "vessel", "string").
@mapping("port_vessel", 2, "vessel_type", "string"). @mapping("port_vessel", 3, "passenger_capacity", "int").
@role("port_vessel", "vessel", "entity"). @role("port_vessel", "vessel_type", "category").
port_vessel($port_name, V, T, P) :- vessel_table(V, T, $port_name, P).
'''
VESSELS = [("MV Ben Torran", "freighter", "Ardcastle", 12), ("MV Corran Star", "ferry", "Ardcastle", 520),
           ("HSC Storm Petrel", "catamaran", "Ardcastle", 260), ("MV Ronan Mor", "ferry", "Kilbrannan", 380),
           ("MV Loch Seil", "ferry", "Kilbrannan", 200), ("HSC Guillemot", "catamaran", "Kilbrannan", 300)]


@pytest.fixture(scope="module")
def fleet(tmp_path_factory):
    root = tmp_path_factory.mktemp("fleet")
    (root / "catalog").mkdir()
    (root / "catalog" / "get_port_fleet.dl").write_text(FLEET)
    (root / "data").mkdir()
    (root / "data" / "vessels.csv").write_text("vessel,vessel_type,home_port,passenger_capacity\n" +
                                               "".join(f"{a},{b},{c},{d}\n" for a, b, c, d in VESSELS))
    return root


def test_a_lower_case_plural_read_as_a_name_is_still_a_kind(fleet):
    result = ask("List the catamarans based at Kilbrannan.", fleet)
    assert result.verified and result.ctx.answer_values == ["HSC Guillemot"], result.answer


@pytest.mark.parametrize(("question", "yes"), [("Is any vessel based at Kilbrannan a freighter?", False),
                                               ("Are there freighters based at Ardcastle?", True)])
def test_whether_things_of_a_kind_exist_is_answered_yes_or_no(fleet, question, yes):
    result = ask(question, fleet)
    assert result.verified and result.ctx.answer_yes is yes, result.answer
    assert result.answer.startswith("Yes" if yes else "No"), result.answer


def test_is_any_of_them_of_a_kind_is_a_part_answered_yes_or_no(fleet):
    result = ask("Which vessels are based at Ardcastle, and is any of them a freighter?", fleet)
    assert result.verified, result.answer
    assert result.ctx.answer_parts == [["HSC Storm Petrel", "MV Ben Torran", "MV Corran Star"], [True]]
    result = ask("Which vessels are based at Kilbrannan, and is any of them a freighter?", fleet)
    assert result.verified and result.ctx.answer_parts[1] == [False], result.answer


def test_a_follow_up_part_about_something_else_than_a_kind_is_refused(fleet):
    result = ask("Which vessels are based at Ardcastle, and is any of them over 40 years old?", fleet)
    assert not result.verified and result.ctx.answer_values is None, result.answer


TICKETS = '''% support tickets, by the agent who handled them
@tool("get_agent_tickets", "Support tickets handled by a support agent: ticket id, the customer account that opened it and its category.").
@param("agent", "string", "Name of the support agent").
@bind("tickets", "csv", "data", "tickets.csv").
@mapping("tickets", 0, "ticket", "string"). @mapping("tickets", 1, "account", "string").
@mapping("tickets", 2, "agent", "string"). @mapping("tickets", 3, "category", "string").
@output("agent_ticket").
@mapping("agent_ticket", 0, "agent", "string"). @mapping("agent_ticket", 1, "ticket", "string").
@mapping("agent_ticket", 2, "account", "string"). @mapping("agent_ticket", 3, "category", "string").
@role("agent_ticket", "ticket", "entity").
agent_ticket($agent, T, A, C) :- tickets(T, A, $agent, C).
'''
HANDLED = {"Sofia Lind": 4, "Pete Gorman": 2, "Ana Ruiz": 3, "Omar Haddad": 1}


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    root = tmp_path_factory.mktemp("desk")
    (root / "catalog").mkdir()
    (root / "catalog" / "get_agent_tickets.dl").write_text(TICKETS)
    (root / "data").mkdir()
    rows = [(f"TK-{i}{k}", f"Account {k}", agent, "billing") for i, (agent, n) in enumerate(HANDLED.items())
            for k in range(n)]
    (root / "data" / "tickets.csv").write_text("ticket,account,agent,category\n" +
                                               "".join(f"{a},{b},{c},{d}\n" for a, b, c, d in rows))
    return root


def test_with_no_thing_named_the_tool_is_called_for_each_of_its_values(desk):
    # "Which support agent ...": no agent is named, so each agent's tickets are fetched and counted
    result = ask("Which support agent has handled the most tickets?", desk)
    assert result.verified and result.ctx.answer_values == ["Sofia Lind"], result.answer
    assert sorted(c.params["agent"] for c in result.ctx.executed.values()) == sorted(HANDLED)
    result = ask("Which two support agents have handled the most tickets?", desk)
    assert result.verified and result.ctx.answer_values == ["Ana Ruiz", "Sofia Lind"], result.answer

