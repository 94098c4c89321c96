"""Right or honest on any catalog (issue 22): rules that merge equal values are refused wherever they come from, and
every question ends answered or "could not answer", never in a traceback."""

from __future__ import annotations

import pytest

from vadaorchestra.errors import ValidationError
from vadaorchestra.mcp_server.workspace import Workspace


@pytest.fixture
def bank_gamma(catalog, tmp_path) -> Workspace:
    ws = Workspace(catalog, tmp_path / "ws.duckdb")
    for tool in ("get_loans", "get_credit_lines", "get_bank_exposures"):
        ws.invoke(tool, {"bank_name": "Bank Gamma"})
    yield ws
    ws.close()


def test_run_program_refuses_a_sum_that_merges_equal_values_and_leaves_the_workspace_unchanged(bank_gamma):
    before = bank_gamma.predicates()
    with pytest.raises(ValidationError) as err:
        bank_gamma.run_program("total(K, T) :- exposure(K, _, A), T = sum(A).")
    [diag] = err.value.diagnostics
    assert (diag.span.line, diag.span.column) == (1, 39)
    assert "merges equal values" in diag.message and "instead of '_'" in diag.message
    assert bank_gamma.predicates() == before


PAYROLL = 'payroll("Sales", "Ann", 100.0). payroll("Sales", "Bob", 100.0). payroll("Sales", "Cy", 40.0).\n'


def test_a_sum_over_rows_with_equal_values_is_refused_until_each_row_is_named(bank_gamma):
    with pytest.raises(ValidationError, match="merges equal values"):
        bank_gamma.run_program(PAYROLL + "total(D, S) :- payroll(D, _, Sal), S = sum(Sal).")
    res = bank_gamma.run_program(PAYROLL + "total(D, S) :- payroll(D, E, Sal), S = sum(Sal).")
    assert res["cardinality"] == 1
    assert bank_gamma.con.execute("SELECT * FROM total").fetchall() == [("Sales", 240.0)]
