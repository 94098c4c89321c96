from programs import CONTROL, CONTROL_PAIRS

from vadaorchestra.datalog import parse, run


def test_company_control_reference_program_yields_exactly_the_twelve_pairs():
    assert run(parse(CONTROL)).rows("control") == CONTROL_PAIRS
