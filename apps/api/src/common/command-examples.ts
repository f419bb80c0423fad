/**
 * An example of each command type the recorded fights play, as it was played there (test/fixtures/logs; the
 * fixture is named). Published in OpenAPI; test/contract-documents checks that every one is a command the contract accepts
 * and that it is in its fixture, so each example is one that actually plays.
 */
export const COMMAND_EXAMPLES: Record<
  string,
  Record<string, { fixture: string; command: Record<string, unknown> }>
> = {
  'arcana-beast': {
    RollInitiative: {
      fixture: 'arcana-beast-fair',
      command: {
        type: 'RollInitiative',
      },
    },
    SetInitiative: {
      fixture: 'arcana-beast-fair',
      command: {
        type: 'SetInitiative',
        order: ['pip', 'bo', 'ember', 'ash', 'wolf2', 'wolf'],
      },
    },
    SetBand: {
      fixture: 'arcana-beast-fair',
      command: {
        type: 'SetBand',
        aId: 'pip',
        bId: 'wolf',
        band: 'close',
      },
    },
    StartRound: {
      fixture: 'arcana-beast-fair',
      command: {
        type: 'StartRound',
      },
    },
    StartActivation: {
      fixture: 'arcana-beast-fair',
      command: {
        type: 'StartActivation',
      },
    },
    Attack: {
      fixture: 'arcana-beast-fair',
      command: {
        type: 'Attack',
        attackerId: 'pip',
        targetId: 'wolf',
      },
    },
    EndActivation: {
      fixture: 'arcana-beast-fair',
      command: {
        type: 'EndActivation',
      },
    },
    EndFight: {
      fixture: 'arcana-beast-fair',
      command: {
        type: 'EndFight',
      },
    },
    Direct: {
      fixture: 'arcana-beast-manual',
      command: {
        type: 'Direct',
        combatantId: 'bo',
      },
    },
  },
  archsoul: {
    SetMap: {
      fixture: 'archsoul-fair',
      command: {
        type: 'SetMap',
        grid: 'hex',
        walls: [
          [
            {
              x: 3,
              y: -4,
            },
            {
              x: 3,
              y: -5,
            },
          ],
        ],
      },
    },
    PlaceCombatant: {
      fixture: 'archsoul-fair',
      command: {
        type: 'PlaceCombatant',
        combatantId: 'kael',
        position: {
          x: 0,
          y: 0,
        },
        facing: 'N',
      },
    },
    SetInitiative: {
      fixture: 'archsoul-fair',
      command: {
        type: 'SetInitiative',
        order: ['kael', 'ilsa', 'brute', 'scout'],
      },
    },
    StartRound: {
      fixture: 'archsoul-fair',
      command: {
        type: 'StartRound',
      },
    },
    Attack: {
      fixture: 'archsoul-fair',
      command: {
        type: 'Attack',
        attackerId: 'kael',
        targetId: 'brute',
        weaponId: 'sword',
      },
    },
    EndTurn: {
      fixture: 'archsoul-fair',
      command: {
        type: 'EndTurn',
        combatantId: 'kael',
      },
    },
    EndFight: {
      fixture: 'archsoul-fair',
      command: {
        type: 'EndFight',
      },
    },
    Move: {
      fixture: 'archsoul-manual',
      command: {
        type: 'Move',
        combatantId: 'kael',
        path: [
          {
            x: 1,
            y: -1,
          },
          {
            x: 1,
            y: -2,
          },
        ],
      },
    },
    ReactiveAttack: {
      fixture: 'archsoul-manual',
      command: {
        type: 'ReactiveAttack',
        combatantId: 'brute',
        weaponId: 'sword',
        dice: [6, 6, 1, 1, 4, 1, 1, 1, 1, 3, 3, 1],
      },
    },
    ResumeAction: {
      fixture: 'archsoul-manual',
      command: {
        type: 'ResumeAction',
        combatantId: 'kael',
      },
    },
  },
  narateer: {
    RollInitiative: {
      fixture: 'narateer-fair',
      command: {
        type: 'RollInitiative',
      },
    },
    StartRound: {
      fixture: 'narateer-fair',
      command: {
        type: 'StartRound',
      },
    },
    StartActivation: {
      fixture: 'narateer-fair',
      command: {
        type: 'StartActivation',
      },
    },
    DeclareExchange: {
      fixture: 'narateer-fair',
      command: {
        type: 'DeclareExchange',
        attackerId: 'mira',
        targetId: 'orin',
        kind: 'melee',
        weaponId: 'sword',
        boost: 1,
        response: 'none',
      },
    },
    EndActivation: {
      fixture: 'narateer-fair',
      command: {
        type: 'EndActivation',
      },
    },
    EndFight: {
      fixture: 'narateer-fair',
      command: {
        type: 'EndFight',
      },
    },
    SetInitiative: {
      fixture: 'narateer-manual-dice-request-and-undo',
      command: {
        type: 'SetInitiative',
        order: ['mira', 'orin'],
      },
    },
    RespondToExchange: {
      fixture: 'narateer-manual-dice-request-and-undo',
      command: {
        type: 'RespondToExchange',
        combatantId: 'orin',
        response: 'fullGuard',
        boost: 0,
        dice: [1, 6],
      },
    },
    ProvideDice: {
      fixture: 'narateer-manual-dice-request-and-undo',
      command: {
        type: 'ProvideDice',
        rerollFaces: [6],
      },
    },
    UndoCommands: {
      fixture: 'narateer-manual-dice-request-and-undo',
      command: {
        type: 'UndoCommands',
        count: 1,
      },
    },
    AddNote: {
      fixture: 'narateer-manual-dice-request-and-undo',
      command: {
        type: 'AddNote',
        text: 'Orin takes it on the shield arm.',
        combatantId: 'orin',
      },
    },
  },
};
