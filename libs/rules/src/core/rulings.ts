import { Ruling } from './types';

/** RULINGS.md, common to all systems. */
export const COMMON_RULINGS: Ruling[] = [
  { id: 'C1', text: 'Dice are data in events: every die rolled is recorded in the event that used it.' },
  {
    id: 'C2',
    text: 'Dice sources: fair (commit-reveal HMAC-SHA256, seed revealed at the end), seeded, manual.',
  },
  {
    id: 'C3',
    text: 'Who decides: the GM may do everything, players act for their combatants, spectators read.',
  },
  { id: 'C4', text: 'One pending decision at a time; other commands wait unless the GM cancels it.' },
  {
    id: 'C5',
    text: 'Roll derivation: draw n is HMAC-SHA256(seed, fightId:clientSeed:n:k), rejection-sampled.',
  },
  { id: 'C6', text: 'Manual dice: a command carries exactly the faces its pools roll, in pool order.' },
  {
    id: 'C7',
    text: 'What refreshes when: per system, at the start of the combatant’s own activation or turn.',
  },
  {
    id: 'C8',
    text: 'Undo appends ActionsUndone, deletes nothing, never rolls a die twice; not after FightEnded (docs/rulings.md).',
  },
  {
    id: 'C9',
    text: 'Seeded fights commit to their seed and reveal it at the end, like fair ones (docs/rulings.md).',
  },
  {
    id: 'C10',
    text: 'Initiative ties no rule breaks wait for the GM’s SetInitiative, or a tieBreak given in advance: ids of the fight, each once, refused whatever the dice otherwise and where nothing can tie; it orders each tied group among its members, settling only a group it names whole (docs/rulings.md).',
  },
  {
    id: 'C11',
    text: 'A player acts only for its own combatants; everything else is the GM’s (docs/rulings.md).',
  },
  {
    id: 'C12',
    text: 'A player’s command sets none of the GM’s fields (circumstances, overrides) and answers for no one else (docs/rulings.md).',
  },
  {
    id: 'C13',
    text: 'Manual dice: a command short of its own first pool is refused; later dice it lacks are asked for with a pending ProvideDice (docs/rulings.md).',
  },
  {
    id: 'C14',
    text: 'A seed reproduces one fight’s faces (its id is in every draw); seeded dice may name a drawKey to take the id’s place and get the same faces in a new fight (docs/rulings.md).',
  },
  {
    id: 'C15',
    text: 'A fight holds at most 200 combatants at once, as StartFight and SetInitiative take them: AddCombatant past that is refused, FIGHT_FULL (docs/rulings.md).',
  },
  {
    id: 'C16',
    text: 'Removing the combatant whose activation runs ends that activation; if no one else is left to act, the round ends with it (docs/rulings.md).',
  },
  {
    id: 'C17',
    text: 'EndFight’s winnerSide must be the side of a combatant in the fight (SIDE_NOT_FOUND): nothing can correct it once the fight has ended (docs/rulings.md).',
  },
  {
    id: 'C18',
    text: 'Manual dice: a command is held only if an answer can complete it; a face its short draw cannot show, a draw past 200 faces, or a carried face no completion reads is refused when sent, as the whole command is (docs/rulings.md).',
  },
];
