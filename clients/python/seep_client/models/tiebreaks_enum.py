from enum import StrEnum


class TiebreaksEnum(StrEnum):
    BAZZIS_WON = "bazzis_won"
    BAZZI_DIFFERENCE = "bazzi_difference"
    BUCHHOLZ = "buchholz"
    BUCHHOLZ_CUT1 = "buchholz_cut1"
    DEALS_WON = "deals_won"
    HEAD_TO_HEAD = "head_to_head"
    POINTS_DIFFERENCE = "points_difference"
    RANDOM = "random"
    RUNNING_DIFFERENCE = "running_difference"
    SONNEBORN_BERGER = "sonneborn_berger"
    SWEEPS = "sweeps"

    def __str__(self) -> str:
        return str(self.value)
