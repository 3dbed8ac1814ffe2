# ruff: noqa: E501
"""Every message the rules engine can refuse an order with, for gettext. GENERATED: do not edit.

Written by `python manage.py engine_messages` from games/engine/ (games/engine_message_scan.py);
tests/words/test_i18n_catalogue.py fails when it is out of date. The web layer translates a
RuleViolation with gettext(message_template) (games/forms.py violation_text).
"""

from django.utils.translation import gettext_noop

ENGINE_MESSAGES = (
    # engine/mission_scoring.py
    gettext_noop("%(card)s is an objective card: it is claimed at the end of your turn."),
    # engine/mission_scoring.py
    gettext_noop("%(card)s is not in your hand."),
    # engine/order_reading.py
    gettext_noop("%(field)s is not valid here."),
    # engine/order_reading.py
    gettext_noop("%(field)s may give ap, fp, blanks, coins and polis."),
    # engine/order_reading.py
    gettext_noop("%(field)s must be a list of Mission Card names."),
    # engine/order_reading.py
    gettext_noop("%(field)s must be a list of spaces."),
    # engine/order_reading.py
    gettext_noop("%(field)s must be a list of tile names."),
    # engine/order_reading.py
    gettext_noop("%(field)s must be a space from A1 to I9."),
    # engine/order_reading.py
    gettext_noop("%(field)s must be a whole number of at least %(min)d."),
    # engine/order_reading.py
    gettext_noop("%(field)s must map coin designs to counts."),
    # engine/offers.py
    gettext_noop("%(player)s cannot pay %(n)d %(item)s (has %(have)d)."),
    # engine/offers.py
    gettext_noop("%(player)s does not hold the coins named in the offer."),
    # engine/__init__.py
    gettext_noop("%(player)s is not playing in this game."),
    # engine/offers.py
    gettext_noop("%(space)s awaits the trade link of a Choice Expand; it cannot change hands now."),
    # engine/movement.py
    gettext_noop("%(space)s holds no Polis; units can only move to a Polis."),
    # engine/movement.py
    gettext_noop("%(space)s is named twice as a destination."),
    # engine/offers.py
    gettext_noop("%(space)s is not a Polis of %(player)s."),
    # engine/expansion.py
    gettext_noop("%(space)s is not empty."),
    # engine/expansion.py
    gettext_noop("%(space)s is not next to a Polis you control."),
    # engine/movement.py
    gettext_noop("%(space)s is where your units start; it cannot be a destination."),
    # engine/builders.py
    gettext_noop("A Builder appears in your Native Polis, and you do not hold it now."),
    # engine/movement.py
    gettext_noop("A Builder cannot stay alone in %(origin)s: leave a phalanx or take it along."),
    # engine/movement.py
    gettext_noop("A Builder cannot travel to %(space)s without a phalanx."),
    # engine/mission_scoring.py
    gettext_noop("A Combo needs 3 different designs; Blanks fill the gaps."),
    # engine/mission_scoring.py
    gettext_noop("A Flush needs 4 coins of one design; Blanks fill the gaps."),
    # engine/actions.py
    gettext_noop("A Fortification costs %(cost)d AP; you have %(ap)d."),
    # engine/offers.py
    gettext_noop("A Native Polis cannot be handed over (%(space)s)."),
    # engine/movement.py
    gettext_noop("A Navigator cannot stay alone in %(origin)s: leave a phalanx or take it along."),
    # engine/movement.py
    gettext_noop("A Navigator cannot travel to %(space)s without a phalanx."),
    # engine/order_reading.py
    gettext_noop("A destination needs a space and may give phalanxes, king, navigators, builders."),
    # engine/setup.py
    gettext_noop("A game needs 2 to 4 different factions out of %(known)s."),
    # engine/order_reading.py
    gettext_noop("A move has 1 to %(max)d destinations."),
    # engine/movement.py
    gettext_noop("A move may reach at most 3 destinations; you named %(count)d."),
    # engine/actions.py
    gettext_noop("A rival holds your Native Polis; you recruit only where your King stands."),
    # engine/__init__.py
    gettext_noop("A tile choice must be answered first."),
    # engine/expansion.py
    gettext_noop("A trade link joins the new Polis to an adjacent Polis you control; %(link)s is not one."),
    # engine/offers.py
    gettext_noop("An offer goes to one rival in this game, not to %(to)s."),
    # engine/offers.py
    gettext_noop("An offer must give or ask something."),
    # engine/order_reading.py, web/forms/kinds.py
    gettext_noop("An order must be a JSON object."),
    # engine/builders.py
    gettext_noop("At most %(max)d Builders may be in play, and you have %(have)d."),
    # engine/actions.py
    gettext_noop("At most %(max)d Navigators each: you have %(have)d in play and want %(more)d more."),
    # engine/government.py
    gettext_noop("Choose Tyranny, Oligarchy or Democracy, not %(government)s."),
    # engine/winter.py
    gettext_noop("Coins are committed only in a scoring winter."),
    # engine/mission_scoring.py
    gettext_noop("Coins for a card need a Combo or Flush card to go with them."),
    # engine/order_reading.py
    gettext_noop("Each destination must be an object."),
    # engine/expansion.py
    gettext_noop("Give a discard order only when you keep neither tile."),
    # engine/movement.py
    gettext_noop("Give the order of your battles: each of %(spaces)s exactly once."),
    # engine/offers.py
    gettext_noop("Heroes stand on %(space)s; a Polis is handed over without them."),
    # engine/__init__.py
    gettext_noop("It is not your turn; the game waits for %(player)s."),
    # engine/order_reading.py
    gettext_noop("Keep one tile, or list both tiles in their discard order."),
    # engine/movement.py
    gettext_noop("Name at least one destination for your units."),
    # engine/__init__.py
    gettext_noop("No actions now: it is winter; send your winter order."),
    # engine/offers.py
    gettext_noop("Offers are answered only during the action rounds."),
    # engine/actions.py
    gettext_noop("Only %(supply)d phalanxes are left in your supply."),
    # engine/mission_scoring.py
    gettext_noop("Only a Combo or Flush card takes coins."),
    # reading/previews.py
    gettext_noop("Only a Move has a cost to preview."),
    # engine/order_reading.py
    gettext_noop("Recruit at least one phalanx or Navigator."),
    # engine/actions.py
    gettext_noop("Recruit only in your Native Polis or where your King stands, not in %(space)s."),
    # engine/builders.py
    gettext_noop("Recruiting a Builder is not one of your faction's actions."),
    # engine/actions.py
    gettext_noop("Recruiting this costs %(cost)d AP; you have %(ap)d."),
    # engine/movement.py
    gettext_noop("Send at least one unit to %(space)s."),
    # engine/__init__.py
    gettext_noop("That is not an order."),
    # engine/missions.py
    gettext_noop("The Mission Card deck is empty; the Oracle has nothing to give."),
    # engine/missions.py
    gettext_noop("The Oracle costs 1 coin; you have no %(coin)s to pay with."),
    # engine/expansion.py
    gettext_noop("The Polis deck is empty."),
    # engine/order_reading.py
    gettext_noop("The coin design %(design)s is named twice."),
    # engine/expansion.py
    gettext_noop("The discard pile is empty."),
    # engine/__init__.py
    gettext_noop("The game is over."),
    # engine/order_reading.py
    gettext_noop("The order does not name its player."),
    # engine/order_reading.py
    gettext_noop("The order is missing the field %(field)s."),
    # engine/movement.py
    gettext_noop("The units sent to %(space)s must be whole numbers of 0 or more."),
    # engine/offers.py
    gettext_noop("There is no open offer %(offer)d to you."),
    # engine/expansion.py, services/inbox/replies.py
    gettext_noop("There is no tile choice waiting for you."),
    # engine/expansion.py
    gettext_noop("This Expand costs %(cost)d FP; you have %(fp)d."),
    # engine/mission_scoring.py
    gettext_noop("This card takes exactly %(n)d coins (Blanks included)."),
    # engine/payment.py
    gettext_noop(
        "This costs %(cost)d %(unit)s: %(blanks)d in Blanks leaves %(rest)d, but you have %(have)d %(unit)s."
    ),
    # engine/payment.py
    gettext_noop("This costs only %(cost)d; you cannot pay %(blanks)d Blanks for it."),
    # engine/movement.py
    gettext_noop("This move costs %(cost)d FP, but you have only %(fp)d FP."),
    # services/orders.py
    gettext_noop("This seat does not play in this game."),
    # engine/expansion.py
    gettext_noop("To keep neither tile, list both (%(tiles)s) in the order they go on the discard pile."),
    # engine/order_reading.py
    gettext_noop("Unknown field(s) in the order: %(fields)s."),
    # engine/order_reading.py, web/views/play.py
    gettext_noop("Unknown kind of order: %(kind)s."),
    # engine/government.py
    gettext_noop("You already live under %(government)s; a Reform must change it."),
    # engine/actions.py
    gettext_noop("You can fortify only a Polis you control; %(space)s is not."),
    # engine/expansion.py
    gettext_noop("You can keep only one of %(tiles)s."),
    # services/orders.py
    gettext_noop("You can only give orders for %(player)s."),
    # engine/movement.py
    gettext_noop("You can only move units out of a Polis you control; %(origin)s is not yours."),
    # engine/movement.py
    gettext_noop("You can send your King to one destination, and only if he is in %(origin)s."),
    # engine/winter.py
    gettext_noop("You cannot commit coins that are not behind your screen."),
    # engine/mission_scoring.py
    gettext_noop("You do not hold the Monopoly of %(resource)s."),
    # engine/winter.py
    gettext_noop("You have already sent your winter order."),
    # engine/trade.py
    gettext_noop("You have no trade link to a neutral Polis you have not yet traded with this year."),
    # engine/winter.py
    gettext_noop("You have only %(blanks)d Blanks to commit."),
    # engine/mission_scoring.py
    gettext_noop("You may redeem at most one winter Mission Card per scoring."),
    # engine/movement.py
    gettext_noop("You move %(moving)d %(kind)s out of %(origin)s, but only %(present)d are there."),
    # engine/payment.py
    gettext_noop("You want to pay %(blanks)d Blanks but have only %(have)d."),
    # engine/movement.py
    gettext_noop("Your King cannot stay alone in %(origin)s: leave a phalanx with him or take him along."),
    # engine/movement.py
    gettext_noop("Your King cannot travel to %(space)s without a phalanx."),
    # engine/order_reading.py
    gettext_noop("king must be true or false."),
)
