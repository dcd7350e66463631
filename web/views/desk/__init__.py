"""The director's desk: the tournaments one directs and a new evening (``home``); a
tournament's teams from the club's roster (``teams``), stages (``stages``), rounds
(``rounds``), and the review of rejected and disputed deals with their corrections
(``matches``); the desk page itself and its notices (``tournament``).

Only a tournament's directors find its desk (anyone else gets a 404). Every change goes
through the competition services or the store's append service, which check the actor again
and are each one transaction; a refusal comes back as a message in words, with nothing lost
from the form, and a destructive button asks first, saying what it will do.
"""
