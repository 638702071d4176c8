import { channelNames, meResponse } from '@depot/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useSession } from './access.tsx';
import { api } from './http.ts';
import { useChannel } from './realtime.ts';
import { session } from './session.ts';

/** Reads the signed-in user's permissions, roles and stores again and keeps them in the session. */
export async function reloadAccess(): Promise<void> {
  const { data } = await api('me', { schema: meResponse });
  session.updateAccess({
    permissions: data.permissions,
    roles: data.roles,
    coverage: data.coverage,
    landing: data.landing ?? null,
  });
}

/**
 * An administrator changed what this user may do (their roles, a role's permissions, their
 * coverage): the server says `PermissionsChanged` on the user's own channel; the permissions are
 * read again, so the menu and the buttons follow without signing out, and every list is read again
 * (coverage may have changed what it holds).
 */
export function useLivePermissions(): void {
  const { userId } = useSession();
  const client = useQueryClient();
  useChannel(userId ? channelNames.user(userId) : null, 'PermissionsChanged', () => {
    void reloadAccess()
      .then(() => client.invalidateQueries())
      .catch(() => {});
  });
}
