import type { Account, Holder } from '../domain/api-key.js';

/**
 * Whose booking pages a guest is on (contract §10, §14): a holder's own, at `/book/{handle}`, or
 * an account's team, at `/team/{accountHandle}`. The same routes, picker, form and manage page
 * serve both; only who is named and where the pages live differ.
 */
export type PageOwner = { kind: 'holder'; holder: Holder } | { kind: 'team'; account: Account };

/** The name guests see of a holder or an account: its display name, else its name. */
export function shownName(named: Pick<Holder | Account, 'name' | 'displayName'>): string {
  return named.displayName ?? named.name;
}

export function ownerName(owner: PageOwner): string {
  return shownName(owner.kind === 'holder' ? owner.holder : owner.account);
}

/** The handle the owner's pages live under. */
export function ownerHandle(owner: PageOwner): string {
  return owner.kind === 'holder' ? owner.holder.handle : owner.account.handle;
}
