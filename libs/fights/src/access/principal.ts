/** Who is calling (C3): the operator, a tenant (GM of its fights), or a fight token. */
export type Principal =
  | { kind: 'admin'; keyId: string }
  | { kind: 'tenant'; tenantId: string; keyId: string }
  | { kind: 'player'; fightId: string; tokenId: string; combatantIds: string[] }
  | { kind: 'spectator'; fightId: string; tokenId: string };

/** The actor recorded on events: who issued the command. */
export function actorName(p: Principal): string {
  switch (p.kind) {
    case 'admin':
      return `admin:${p.keyId}`;
    case 'tenant':
      return `gm:${p.keyId}`;
    case 'player':
      return `player:${p.tokenId}`;
    case 'spectator':
      return `spectator:${p.tokenId}`;
  }
}

export function principalId(p: Principal): string {
  return p.kind === 'player' || p.kind === 'spectator' ? p.tokenId : p.keyId;
}
