#!/usr/bin/env python3
# Your first Kriegspiel bot (docs/first-bot.md): it speaks krieg's engine protocol (docs/protocol.md),
# one JSON object a line on stdin and stdout, and plays a random attempt that is not Nonsense,
# except that it takes back on the square where the opponent just captured.
#   krieg play --white 'ext:python3 examples/first-bot.py' --black random --out games.kpgn
import json
import random
import sys


def send(message):
    print(json.dumps(message), flush=True)


rng = random.Random()
recapture = None  # the square the opponent just captured on
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        send({"type": "hello", "protocol": 1, "name": "first-bot.py"})
    elif message["type"] == "game":  # rules, side, start, seed, budget
        rng.seed(message["seed"])  # the same seed, the same game
        send({"type": "ready"})
    elif message["type"] == "event":  # what the referee told us (docs/rules-and-notation.md)
        event = message["event"]
        if event["type"] == "opponent-move":
            recapture = event.get("percept", {}).get("capture")
    elif message["type"] == "go":  # our turn: the attempts that are not Nonsense
        attempts = message["attempts"]
        takes = [a for a in attempts if a[2:4] == recapture]
        send({"type": "attempt", "attempt": rng.choice(takes or attempts)})
    elif message["type"] == "quit":
        break
