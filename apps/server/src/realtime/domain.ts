import { channelNames, privateChannel } from '@depot/contracts';
import type { Db } from '../db/database.ts';
import { eventBus } from '../events/bus.ts';
import { broadcastName } from '../events/events.ts';
import type { Realtime } from './realtime.ts';

/**
 * `PermissionsChanged` on each affected user's private channel (`App.Models.User.{id}`): their open
 * screens read `/api/me` again, and the menu and buttons follow without a sign-out. The payload is
 * the user's own id only; what changed is read through the API.
 */
export function broadcastPermissionChanges(db: Db, realtime: Realtime): () => void {
  return eventBus(db).subscribe(async (event) => {
    if (event.name !== 'PermissionsChanged') return;
    await Promise.all(
      event.payload.user_ids.map((id) =>
        realtime.broadcast(privateChannel(channelNames.user(id)), broadcastName('PermissionsChanged'), {
          user_ids: [id],
        }),
      ),
    );
  });
}
