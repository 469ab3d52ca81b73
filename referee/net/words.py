"""The words of the phone's hand page, kept in the program's catalogue (``referee/locale``) with the window's: the host
serves them translated for the language the phone asks for (``?lang=`` or its Accept-Language), and ``hand.js``
shows nothing else. A word with values names them in braces (``{side}``), so a translation puts them where its
grammar wants them; ``hand.js`` fills them in.

The terrain's names and colours go with them: the hand's map draws the table's terrain as the window does. The shared
table screen (``table.js``) has its own words, ``TABLE``, served the same way.
"""

from __future__ import annotations

import re
from typing import Any, Final

from ..i18n import N_, language_of, translations_for
from ..rules.catalogue import terrain_types

# A language tag as a browser sends it (RFC 5646, the common forms): letters, then parts after hyphens. Nothing else
# reaches gettext, which makes a path of it.
TAG: Final = re.compile(r"^[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8}){0,3}$")
MOST_ASKED: Final = 8                     # the languages of one request that are looked for, best first

HAND: Final[dict[str, str]] = {
    # the page's frame
    "page_title": N_("Seven Seconds: your hand"),
    "connecting": N_("connecting…"),
    "connected": N_("connected"),
    "reconnecting": N_("reconnecting…"),
    "no_seat": N_("no seat: open your link again"),
    "side": N_("Side {side}"),
    "spectator": N_("The table"),
    "round_phase": N_("· round {round} · {phase}"),
    "phase_setup": N_("set-up"),
    "phase_action": N_("action"),
    "phase_end-of-round": N_("end of round"),
    "phase_over": N_("over"),
    "your_decision": N_("Your decision"),
    "holding_area": N_("Holding area"),
    "your_blips": N_("Your blips"),
    "log": N_("Log"),
    "mission": N_("Mission"),
    "cards": N_("Cards"),
    "your_seal": N_("Your seal"),
    # the host's replies
    "sent": N_("Sent…"),
    "said_waiting": N_("Said. Waiting for side {side}."),
    "asked_agree": N_("Asked side {side} to agree."),
    # waiting
    "over": N_("The battle is over."),
    "your_turn_table": N_("Your turn at the table: move, target and shoot on the table screen."),
    "waits_for_you": N_("The battle waits for your decision."),
    "waits_for_side": N_("The battle waits for side {side}."),
    "waiting": N_("Waiting."),
    # take-backs and dice
    "asked_take_back": N_("You asked side {side} to agree to take back {what}."),
    "take_back": N_("Take back: {what}"),
    "take_back_asks": N_("Take back: {what} (asks side {side})"),
    "consent_asked": N_("Side {side} asks to take back {what}"),
    "agree": N_("Agree"),
    "refuse": N_("Refuse"),
    "roll_die": N_("Roll and type the die"),
    "face_rolled": N_("the face rolled"),
    "give_die": N_("Give this die"),
    # cards
    "square_n": N_("square {n}"),
    "round_limit": N_("Round limit: {n}"),
    "no_round_limit": N_("No round limit"),
    "draw_title": N_("Draw your cards"),
    "drones_to_buy": N_("Drones to buy (Chance Encounter):"),
    "draw": N_("Draw"),
    "choose_title": N_("Choose your cards"),
    "keep_mission": N_("Keep one mission card"),
    "keep_troop": N_("Keep one troop card"),
    "keep_these": N_("Keep these"),
    "troops_card": N_("Troops: {card}"),
    "drones_card": N_("Drones: {card}"),
    "card_line": N_("{card}, line {line}"),
    # the holding area
    "fill_title": N_("Fill your holding area"),
    "per_square": N_("Up to {n} units a square. Only you see this."),
    "square_for": N_("square for {unit}"),
    "too_many": N_("Too many units in square {squares}"),
    "put_there": N_("Put them there"),
    "fill_for_me": N_("Fill it for me"),
    "blip_in_square": N_("◆ blip {label}"),
    "blip_stands_for": N_("{blip} · square {n}: {contents}"),
    "decoy": N_("a decoy (empty)"),
    # blips
    "place_blip": N_("Place a blip"),
    "place_blip_left": N_("Place a blip ({n} to place)"),
    "stands_for": N_("It stands for"),
    "stands_for_label": N_("the square this blip stands for"),
    "at_x": N_("at x"),
    "and_y": N_("y"),
    "x_inches": N_("x in inches"),
    "y_inches": N_("y in inches"),
    "zone": N_("Your zone: x {x0}–{x1}\", y {y0}–{y1}\"."),
    "blip_tap": N_("Tap the map in your zone to place it there, or type x and y in inches and place it. Leave them "
                   "empty to have it placed for you."),
    "place_this_blip": N_("Place this blip"),
    "place_all_blips": N_("Place all my blips for me"),
    # Scramble, facing, the end of the round
    "scramble_title": N_("Scramble {unit}"),
    "scramble_into": N_("Into"),
    "scramble_label": N_("the square to Scramble into"),
    "scramble_do": N_("Scramble"),
    "face_title": N_("Face {unit}"),
    "facing": N_("Facing"),
    "facing_label": N_("facing in degrees"),
    "face": N_("Face"),
    "face_tap": N_("Tap the map: it faces the point tapped."),
    "place_tap": N_("Tap the map where it stands, touching {first}: it is placed there, facing away from {first}."),
    "withdraws": N_("Side {side} withdraws"),
    "mission_limit": N_("Your mission's round limit: {n}"),
    "mission_no_limit": N_("Your mission has no round limit"),
    "allow_it": N_("Allow it"),
    "pursue": N_("Pursue"),
    "end_of_round": N_("End of the round"),
    "you_said": N_("You said: {word}. Waiting for side {side}."),
    "word_on": N_("play on"),
    "word_stop": N_("stop"),
    "word_withdraw": N_("withdraw"),
    "word_allow": N_("allow"),
    "word_pursue": N_("pursue"),
    "play_on": N_("Play on"),
    "offer_stop": N_("Offer to stop"),
    "withdraw": N_("Withdraw"),
    "seal_note": N_("Note its first groups: the end of the battle checks your set-up against it."),
    # a refereed physical game: a blip's contents at its reveal, the mission card entered
    "what_blip_holds": N_("What does {blip} hold?"),
    "contents_note": N_("It is revealed now. Look at its square of your holding area and give what it holds: up to 2 "
                        "units ({faction}), or a decoy. Only you see this until the reveal."),
    "unit_type_n": N_("unit {n}: its type"),
    "rating_n": N_("unit {n}: its rating"),
    "no_unit": N_("(choose a unit)"),
    "no_second_unit": N_("(no second unit)"),
    "that_is_what": N_("That is what it holds"),
    "a_decoy": N_("It is a decoy"),
    "telling_contents": N_("Side {side} is telling what {blip} holds."),
    # a side that keeps its secrets on its own computer (seven-seconds host --kept-by)
    "kept_here": N_("Side {side}'s secrets are kept on this phone: the host holds only what they are committed to. "
                    "Keep this page's data until the battle is over (do not clear the browser's data for this site)."),
    "kept_problem": N_("This phone cannot keep your side's secrets: {problem}"),
    "kept_stranger": N_("This device does not hold side {side}'s secrets for this battle ({what}): they are kept on "
                        "the device that set the side up, or this browser's data for this site was cleared. Open the "
                        "link on that device. This page has left the battle so that, if they are lost, the other "
                        "side may claim it once side {side}'s device has been away 5 minutes."),
    "not_connected": N_("not connected"),
    "kept_draw": N_("Your cards are drawn on this phone: the host is sent only what they are committed to."),
    "kept_budget": N_("Left empty, your drones are your Drone card's line ({card}). Drone prices: {prices}. The "
                      "troop line chosen allows {points} points [A42]."),
    "opening_squares": N_("Side {side}'s device is opening its holding area; then the battle is scored."),
    "computer_away": N_("The battle waits for side {side}'s device to open a square, and it is away."),
    "dice_waiting": N_("The dice wait for side {side}'s device to send its share of them."),
    "dice_away": N_("The dice wait for side {side}'s device to send its share of them, and it is away."),
    "claim_forfeit": N_("Side {side}'s device has been away too long: claim the battle (side {side} forfeits)"),
    "enter_mission": N_("Enter your mission card"),
    "mission_note": N_("So the program scores the battle. It stays secret until the end: the table is told only that "
                       "it is entered."),
    "troop_card": N_("Troop card"),
    "drone_card": N_("Drone card"),
    "no_troop_card": N_("no troop card"),
    "no_drone_card": N_("no drone card"),
    "enter_it": N_("Enter it"),
    # the map
    "map": N_("The table"),
    "map_label": N_("the table seen from your edge; tap to choose a point"),
    "map_for": N_("The map answers: {what}"),
    "use_map": N_("Use the map"),
    "your_edge": N_("your edge"),
    "their_edge": N_("side {side}'s edge"),
    "your_zone": N_("your zone"),
    "tapped": N_("Tapped ({x}, {y})"),
    "objective": N_("objective"),
    "impassable": N_("impassable"),
}


def asked_languages(query: str | None, accept: str | None) -> tuple[str, ...]:
    """The languages a request asks for, best first: ``?lang=`` before the Accept-Language header (by its q
    weights); a regional tag is followed by its language (``fr-CH``: ``fr_CH``, then ``fr``). A malformed tag is
    left out."""
    weighted: list[tuple[float, int, str]] = []
    if query:
        weighted.append((2.0, 0, query.strip()))
    for i, part in enumerate((accept or "").split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        if weight > 0:
            weighted.append((weight, i + 1, tag.strip()))
    out: list[str] = []
    for _, _, tag in sorted(weighted, key=lambda w: (-w[0], w[1])):
        if not TAG.match(tag):
            continue
        parts = re.split(r"[-_]", tag)
        forms = [parts[0].lower() + "".join("_" + p.upper() for p in parts[1:2])] + [parts[0].lower()]
        out.extend(f for f in forms if f not in out)
    return tuple(out[:MOST_ASKED])


def hand_words(languages: tuple[str, ...]) -> dict[str, Any]:
    """What ``hand.js`` shows, in the first of ``languages`` the catalogue has (else English): the language, each
    word by its key, and the terrain's kinds (name, colour, and whether troopers may stand in it)."""
    return page_words(HAND, languages)


# The shared table screen's words (``table.js``, ``table.html``): read from across the table, public only.
TABLE: Final[dict[str, str]] = {
    "page_title": N_("Seven Seconds: the table"),
    "connecting": N_("connecting…"),
    "connected": N_("connected"),
    "reconnecting": N_("reconnecting…"),
    "no_seat": N_("no seat: open the table's link again"),
    "board_label": N_("the table, side A's edge at the bottom"),
    "round": N_("Round {round}"),
    "phase_setup": N_("set-up"),
    "phase_action": N_("action"),
    "phase_end-of-round": N_("end of round"),
    "phase_over": N_("over"),
    "initiative": N_("Side {side} holds the Initiative"),
    "side_edge": N_("side {side}'s edge"),
    # who the battle waits for
    "over": N_("The battle is over."),
    "turn_of": N_("Side {side}'s turn"),
    "at_the_table": N_("Side {side} plays at the table."),
    "on_their_phone": N_("Side {side} is deciding on their phone: {what}."),
    "both_on_phones": N_("End of the round: both sides answer on their phones (play on, stop or withdraw)."),
    "waits_for_side": N_("The battle waits for side {side}."),
    "dice_waiting": N_("The dice wait for side {side}'s device to send its share of them."),
    "dice_away": N_("The dice wait for side {side}'s device to send its share of them, and it is away."),
    "device_opening": N_("The battle waits for side {side}'s device to open a square."),
    "device_away": N_("The battle waits for side {side}'s device to open a square, and it is away."),
    "telling_contents": N_("Side {side} is telling what {blip} holds."),
    "active": N_("Active: {unit}, {n} actions left"),
    "activations": N_("Activations used: {used} of {allowed}"),
    "step_roles": N_("rolling for attacker and defender"),
    "step_edge": N_("picking its table edge"),
    "step_objective": N_("placing an objective"),
    "step_cards": N_("drawing its cards"),
    "step_choose-cards": N_("choosing the cards it plays"),
    "step_holding": N_("filling its holding area"),
    "step_blip": N_("placing a blip"),
    "step_face": N_("placing and facing troopers just revealed"),
    "step_end-of-round": N_("answering at the end of the round"),
    "setup_at_table": N_("Set-up: side {side} is {what} at the table."),
    # the log and the key to the marks
    "log": N_("Last on the table"),
    "key": N_("Key"),
    "key_counters": N_("Target counters"),
    "key_damaged": N_("Damaged"),
    "key_stunned": N_("Stunned"),
    "key_activation": N_("still to activate"),
    "key_active": N_("active now"),
    "key_blip": N_("blip"),
    "type_commander": N_("Commander"),
    "type_tactical": N_("Tactical"),
    "type_assault": N_("Assault"),
    "type_scout": N_("Scout"),
    "type_engineer": N_("Engineer"),
    "type_basic-drone": N_("Basic drone"),
    "type_kamikaze-drone": N_("Kamikaze drone"),
    "type_haywire-drone": N_("Haywire drone"),
    "type_recce-drone": N_("Recce drone"),
}


def page_words(words: dict[str, str], languages: tuple[str, ...]) -> dict[str, Any]:
    """A page's ``words`` in the first of ``languages`` the catalogue has (else English), with the terrain's kinds
    for its map (name, colour, and whether troopers may stand in it)."""
    t = translations_for(languages)
    terrain = {ident: {"name": t.gettext(kind.name), "colour": kind.colour,
                       "impassable": bool(kind.troopers.impassable), "blocking": bool(kind.blocking)}
               for ident, kind in terrain_types().items()}
    return {"lang": language_of(languages), "words": {key: t.gettext(text) for key, text in words.items()},
            "terrain": terrain}


def table_words(languages: tuple[str, ...]) -> dict[str, Any]:
    """What ``table.js`` shows, as ``hand_words`` gives the hand's."""
    return page_words(TABLE, languages)
