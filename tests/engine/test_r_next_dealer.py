"""R: who deals next, through ``sc.next_dealer`` (docs/rules.md R1-R3)."""

import pytest

import seep_core as sc

DEALERS = [0, 1, 2, 3]


def team(seat):
    return seat % 2


class TestR1SameDealer:
    @pytest.mark.parametrize("dealer", DEALERS)
    def test_a_dealer_whose_team_is_behind_deals_again(self, dealer):
        assert sc.next_dealer(dealer, ahead=1 - team(dealer), bazzi=False) == dealer

    @pytest.mark.parametrize("dealer", DEALERS)
    def test_a_dealer_whose_team_is_level_deals_again(self, dealer):
        assert sc.next_dealer(dealer, ahead=None, bazzi=False) == dealer


class TestR2DealPasses:
    @pytest.mark.parametrize("dealer", DEALERS)
    def test_a_dealer_whose_team_is_ahead_passes_the_deal_to_the_right(self, dealer):
        assert sc.next_dealer(dealer, ahead=team(dealer), bazzi=False) == (dealer + 1) % 4


class TestR3AfterABazzi:
    @pytest.mark.parametrize("dealer", DEALERS)
    def test_when_the_dealers_team_wins_the_bazzi_the_partner_of_the_right_hand_player_deals(
        self, dealer
    ):
        # R2 would choose dealer + 1; R3 gives the deal to that player's partner
        assert sc.next_dealer(dealer, ahead=team(dealer), bazzi=True) == (dealer + 3) % 4

    @pytest.mark.parametrize("dealer", DEALERS)
    def test_when_the_other_team_wins_the_bazzi_the_dealers_partner_deals(self, dealer):
        assert sc.next_dealer(dealer, ahead=1 - team(dealer), bazzi=True) == (dealer + 2) % 4

    def test_after_a_bazzi_there_is_always_a_team_ahead(self):
        with pytest.raises(ValueError):
            sc.next_dealer(0, ahead=None, bazzi=True)


class TestNextDealerInput:
    @pytest.mark.parametrize(
        ("dealer", "ahead"),
        [(4, 0), (-1, 0), (None, 0), (True, 0), ("1", 0), (0, 2), (0, True), (0, "0"), (0, [0])],
    )
    def test_a_bad_seat_or_team_is_refused_as_a_value_error(self, dealer, ahead):
        with pytest.raises(ValueError):
            sc.next_dealer(dealer, ahead, False)

    @pytest.mark.parametrize("ahead", [1.0, 0.0])
    def test_a_team_given_as_a_float_is_refused(self, ahead):
        with pytest.raises(ValueError):
            sc.next_dealer(0, ahead, False)

    @pytest.mark.parametrize("bazzi", [1, 0, "yes", None, [True]])
    def test_bazzi_must_be_a_bool(self, bazzi):
        with pytest.raises(ValueError):
            sc.next_dealer(0, 1, bazzi)
