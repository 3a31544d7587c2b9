import { useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { type ActionAnswer, useAnswerToast } from "~/features/crm/form-helpers";
import { formatDateTime } from "~/lib/format";
import type { PendingInvitation } from "../invitations.server";
import { ROLE_LABELS } from "./user-controls";

/** One fetcher for every row: its answer is toasted by the list, which outlives the revoked row. */
const REVOKE_KEY = "revoke-invitation";

function RevokeButton({ invitation }: { invitation: PendingInvitation }) {
  const fetcher = useFetcher<ActionAnswer>({ key: REVOKE_KEY });
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={fetcher.state !== "idle"}
      aria-label={`Revogar o convite de ${invitation.email}`}
      onClick={() => fetcher.submit({ intent: "revoke-invitation", id: invitation.id }, { method: "post", action: "/crm/usuarios" })}
    >
      <Icon name="x" /> Revogar
    </Button>
  );
}

/** Invitations still waiting for their invitee; 'Revogar' kills the link at once. */
export function PendingInvitations({ invitations }: { invitations: PendingInvitation[] }) {
  useAnswerToast(useFetcher<ActionAnswer>({ key: REVOKE_KEY }));
  if (invitations.length === 0) return null;
  return (
    <Card className="p-4 sm:p-6">
      <h2 className="text-lg font-semibold">Convites pendentes</h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Um convite revogado deixa de valer na hora. Os convites de quem deixa de ser administrador são revogados junto.
      </p>
      <ul className="mt-3 grid divide-y divide-border text-sm">
        {invitations.map((invitation) => (
          <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3">
            <div className="grid min-w-0 gap-1">
              <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <span className="break-all font-medium">{invitation.email}</span>
                <Badge variant="secondary">{ROLE_LABELS[invitation.role]}</Badge>
              </p>
              <p className="text-muted-foreground">
                {invitation.invitedBy ? `Convidado por ${invitation.invitedBy}; vale` : "Vale"} até {formatDateTime(invitation.expiresAt)}
              </p>
            </div>
            <RevokeButton invitation={invitation} />
          </li>
        ))}
      </ul>
    </Card>
  );
}
