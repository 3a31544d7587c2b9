import { useState } from "react";
import { useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Icon } from "~/components/ui/icon";
import { NativeSelect } from "~/components/ui/native-select";
import { ROLES, type Role } from "~/db/values";
import { type ActionAnswer, useAnswerToast } from "~/features/crm/form-helpers";
import type { UserWithRole } from "../users.server";

/** What an admin does to one account on /crm/usuarios: its role, and deleting it. */

export const ROLE_LABELS: Record<Role, string> = { admin: "Administrador", corretor: "Corretor" };

export function RoleSelect({ user, isMe }: { user: UserWithRole; isMe: boolean }) {
  const fetcher = useFetcher<ActionAnswer>({ key: `role-${user.id}` });
  const pending = fetcher.formData?.get("role");
  useAnswerToast(fetcher);
  // A role goes only to a proven address; an unverified account can still lose one it has.
  const waiting = !user.emailVerified && !user.role;
  const hintId = `role-hint-${user.id}`;
  return (
    <div className="grid gap-1">
      <NativeSelect
        aria-label={`Acesso de ${user.email}`}
        aria-describedby={waiting ? hintId : undefined}
        value={typeof pending === "string" ? pending : (user.role ?? "")}
        disabled={isMe || waiting || fetcher.state !== "idle"}
        className="w-44"
        onChange={(event) => fetcher.submit({ userId: user.id, role: event.target.value }, { method: "post", action: "/crm/usuarios" })}
      >
        <option value="">Sem acesso</option>
        {ROLES.map((role) => (
          <option key={role} value={role} disabled={!user.emailVerified}>
            {ROLE_LABELS[role]}
          </option>
        ))}
      </NativeSelect>
      {waiting && (
        <p id={hintId} className="text-xs text-muted-foreground">
          Aguardando a confirmação do email
        </p>
      )}
    </div>
  );
}

export function VerifiedBadge({ verified }: { verified: boolean }) {
  return verified ? <Badge variant="success">Email confirmado</Badge> : <Badge variant="warning">Email não confirmado</Badge>;
}

/** 'Excluir' with a "Tem certeza?" first (LGPD erasure; never one's own account). */
export function DeleteUserButton({ user }: { user: UserWithRole }) {
  const fetcher = useFetcher<ActionAnswer>({ key: `delete-user-${user.id}` });
  const [open, setOpen] = useState(false);
  useAnswerToast(fetcher, () => setOpen(false));
  const busy = fetcher.state !== "idle";
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)} aria-label={`Excluir a conta de ${user.email}`}>
        <Icon name="trash-2" /> Excluir
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => !busy && setOpen(next)}
        title="Excluir esta conta?"
        description={
          <>
            A conta de <strong className="break-all text-foreground">{user.email}</strong> é apagada com o acesso, as sessões abertas, o
            endereço da agenda no celular, os convites pendentes e os emails de conta ainda guardados. O registro de auditoria continua.
            Não pode ser desfeito.
          </>
        }
        confirmLabel="Excluir conta"
        busy={busy}
        onConfirm={() => fetcher.submit({ intent: "delete-user", userId: user.id }, { method: "post", action: "/crm/usuarios" })}
      />
    </>
  );
}
