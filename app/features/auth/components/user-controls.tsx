import { useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
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

/** 'Excluir' on an account's row; the page asks "Tem certeza?" (DeleteConfirm) before posting. */
export function DeleteUserButton({ user, onClick }: { user: UserWithRole; onClick: () => void }) {
  return (
    <Button variant="outline" size="sm" onClick={onClick} aria-label={`Excluir a conta de ${user.email}`}>
      <Icon name="trash-2" /> Excluir
    </Button>
  );
}

/** What the confirmation says before an account is erased. */
export const describeUserDeletion = (user: UserWithRole) =>
  `A conta de ${user.email} é apagada com o acesso, as sessões abertas, o endereço da agenda no celular, os convites pendentes e os emails de conta ainda guardados. O registro de auditoria continua. Não pode ser desfeito.`;
