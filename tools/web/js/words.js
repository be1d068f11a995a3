// Sentences built from the catalogue for what the engine and the bridge report: seat names, the
// result from the human's point of view, end reasons, error codes and close codes, and moves.

import { t, tOr } from './i18n.js';
import * as P from './parse.js';

/** The seats the page knows the kind of: [{kind: 'human'|'engine'}] by seat number - 1. */
function humans(seats) {
  return seats.filter((s) => s.kind === 'human').length;
}

/** A seat's name: "You" when it is the only human seat, else "Player n" or "Player n (computer)". */
export function seatName(n, seats) {
  const seat = seats[n - 1] || { kind: 'human' };
  if (seat.kind === 'human' && humans(seats) === 1) return t('seat.you');
  return seat.kind === 'engine' ? t('seat.engine', { n }) : t('seat.human', { n });
}

/** A ranking entry's name (a player or a team). */
export function rankName(r, seats, teamSeats) {
  if (r.kind === 'team') return t('seat.team', { n: r.n, seats: (teamSeats[r.n] || []).join(' + ') });
  return seatName(r.n, seats);
}

/**
 * The result in words: "You won" / "You lost" / "A tie" from the human seat's point of view when
 * there is exactly one, else who won.
 * @param ranking parsed `status` ranking; @param seats; @param teamSeats team -> its seats
 */
export function resultWords(ranking, seats, teamSeats) {
  const winners = ranking.filter((r) => r.rank === 1);
  const human = seats.findIndex((s) => s.kind === 'human') + 1;
  if (humans(seats) === 1 && ranking.length > 1) {
    const mine = ranking.find((r) =>
      r.kind === 'team' ? (teamSeats[r.n] || []).includes(human) : r.n === human,
    );
    if (mine && mine.rank === 1) return winners.length > 1 ? t('result.youTied') : t('result.youWon');
    return t('result.youLost');
  }
  if (winners.length === 1) return t('result.won', { who: rankName(winners[0], seats, teamSeats) });
  return t('result.tie', { who: winners.map((w) => rankName(w, seats, teamSeats)).join(', ') });
}

/** The end reason of `status` in words. */
export function endWords(code) {
  return tOr(`end.${code}`, t('end.other', { code }));
}

/**
 * An engine's `?` response in words, chosen by its reason key (version 3) where the catalogue has
 * words for it, else by its code (PROTOCOL.md "Errors").
 */
export function errorWords(code, reason = null) {
  const byCode = tOr(`error.${code}`, t('error.other', { code }));
  return reason ? tOr(`reason.${reason}`, byCode) : byCode;
}

/** Why the bridge closed the connection (its close codes), in words. */
export function closeWords(code, reason) {
  return tOr(`close.${code}`, t('close.other', { reason }), { reason });
}

/** A move in words: "6 on e4, 1 on d3", or the catalogue's word for a pass. */
export function moveWords(move) {
  const ps = P.placements(move);
  if (!ps.length) return t('move.pass');
  return ps.map((p) => t('move.placement', { value: p.value, cell: p.cell })).join(', ');
}
