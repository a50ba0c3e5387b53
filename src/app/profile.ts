import type { Account, Holder } from '../domain/api-key.js';
import { DomainError, notFound } from '../domain/errors.js';
import type { AppContext, Caller } from './context.js';
import { UniqueViolation } from './ports/storage-errors.js';

/** The key holder's public profile (contract §10). */
export async function getProfile(context: AppContext, caller: Caller): Promise<Holder> {
  const holder = await context.store.holders.get(caller.holderId);
  if (!holder) throw notFound(`Holder ${caller.holderId}`);
  return holder;
}

export interface ProfileChanges {
  handle?: string;
  /** `null` shows the holder's name again. */
  displayName?: string | null;
}

/**
 * Changes the handle (the booking pages move with it: old page links stop working) and the
 * display name. A handle another holder has is a 409 `conflict`.
 */
export async function updateProfile(context: AppContext, caller: Caller, changes: ProfileChanges): Promise<Holder> {
  try {
    return await context.store.transaction(async (tx) => {
      const current = await tx.holders.get(caller.holderId);
      if (!current) throw notFound(`Holder ${caller.holderId}`);
      const updated: Holder = {
        ...current,
        handle: changes.handle ?? current.handle,
        displayName: changes.displayName === undefined ? current.displayName : changes.displayName,
      };
      if (updated.handle !== current.handle) {
        const owner = (await tx.holders.findByHandle(updated.handle))?.holder;
        if (owner) throw handleTaken(updated.handle);
      }
      await tx.holders.updateProfile(current.id, { handle: updated.handle, displayName: updated.displayName });
      return updated;
    });
  } catch (error) {
    // Two holders claiming one free handle at once: the unique index decides.
    if (error instanceof UniqueViolation) throw handleTaken(changes.handle ?? '');
    throw error;
  }
}

/** A new calendar feed link; the old one stops working at once. */
export async function rotateCalendarFeed(context: AppContext, caller: Caller): Promise<Holder> {
  return context.store.transaction(async (tx) => {
    const current = await tx.holders.get(caller.holderId);
    if (!current) throw notFound(`Holder ${caller.holderId}`);
    return { ...current, feedGeneration: await tx.holders.rotateFeed(current.id) };
  });
}

function handleTaken(handle: string, byAnother: 'holder' | 'account' = 'holder'): DomainError {
  return new DomainError('conflict', `The handle "${handle}" is taken by another ${byAnother}.`, [
    { field: 'handle', message: 'is taken' },
  ]);
}

/** The calling account key's account (`GET /me` in account scope, contract §12). */
export async function getAccountProfile(context: AppContext, accountId: string): Promise<Account> {
  const account = await context.store.accounts.get(accountId);
  if (!account) throw notFound(`Account ${accountId}`);
  return account;
}

/**
 * Changes the account's handle (unique among accounts: another's is a 409 `conflict`) and display
 * name (`null` shows the name).
 */
export async function updateAccountProfile(
  context: AppContext,
  accountId: string,
  changes: ProfileChanges,
): Promise<Account> {
  try {
    return await context.store.transaction(
      async (tx) => {
        const current = await tx.accounts.get(accountId);
        if (!current) throw notFound(`Account ${accountId}`);
        const updated: Account = {
          ...current,
          handle: changes.handle ?? current.handle,
          displayName: changes.displayName === undefined ? current.displayName : changes.displayName,
          updatedAt: context.now(),
        };
        if (updated.handle !== current.handle && (await tx.accounts.findByHandle(updated.handle)))
          throw handleTaken(updated.handle, 'account');
        await tx.accounts.updateProfile(current.id, updated);
        return updated;
      },
      { ownerIds: [accountId] },
    );
  } catch (error) {
    // Two accounts claiming one free handle at once: the unique index decides.
    if (error instanceof UniqueViolation) throw handleTaken(changes.handle ?? '', 'account');
    throw error;
  }
}
