#!/usr/bin/env node
// Your first Kriegspiel bot (docs/first-bot.md): it speaks krieg's engine protocol (docs/protocol.md),
// one JSON object a line on stdin and stdout, and plays a random attempt that is not Nonsense,
// except that it takes back on the square where the opponent just captured.
//   krieg play --white 'ext:node examples/first-bot.mjs' --black random --out games.kpgn
import { createInterface } from 'node:readline';

const send = (message) => process.stdout.write(JSON.stringify(message) + '\n');

let seed = 1; // a random generator of our own (Park and Miller's): the same seed, the same game
const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
let recapture; // the square the opponent just captured on

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.type === 'hello') send({ type: 'hello', protocol: 1, name: 'first-bot.mjs' });
  else if (message.type === 'game') {
    // rules, side, start, seed, budget
    seed = (message.seed % 2147483646) + 1;
    send({ type: 'ready' });
  } else if (message.type === 'event') {
    // what the referee told us (docs/rules-and-notation.md)
    const event = message.event;
    if (event.type === 'opponent-move') recapture = event.percept?.capture;
  } else if (message.type === 'go') {
    // our turn: the attempts that are not Nonsense
    const takes = message.attempts.filter((a) => a.slice(2, 4) === recapture);
    const choices = takes.length ? takes : message.attempts;
    send({ type: 'attempt', attempt: choices[Math.floor(random() * choices.length)] });
  } else if (message.type === 'quit') process.exit(0);
});
