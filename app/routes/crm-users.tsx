import { data, useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { NativeSelect } from "~/components/ui/native-select";
import { Table, Td, Th } from "~/components/ui/table";
import { ROLES, type Role } from "~/db/values";
import { requireAdmin } from "~/features/auth/guard.server";
import { type ActionAnswer, useAnswerToast } from "~/features/crm/form-helpers";
import { changeUserRole, listUsersWithRoles, type UserWithRole } from "~/features/auth/users.server";
import { formatDate } from "~/lib/format";
import { asString, readBody } from "~/lib/request-body.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-users";

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const { db, database } = await getRuntime();
  return { users: await listUsersWithRoles(db), myId: admin.id, canDownloadBackup: database.kind === "pglite" };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const body = await readBody(request);
  const userId = asString(body.userId);
  const roleValue = asString(body.role) ?? "";
  if (!userId || !(roleValue === "" || (ROLES as readonly string[]).includes(roleValue))) {
    return data({ ok: false, message: "Pedido inválido" }, { status: 400 });
  }
  const result = await changeUserRole((await getRuntime()).db, admin.id, userId, (roleValue || null) as Role | null);
  if (!result.ok) return data({ ok: false, message: result.message }, { status: result.status });
  return { ok: true, message: roleValue ? "Acesso atualizado." : "Acesso removido." };
}

export const meta: Route.MetaFunction = () => [{ title: "Usuários | CRM" }];

const ROLE_LABELS: Record<Role, string> = { admin: "Administrador", corretor: "Corretor" };

function RoleSelect({ user, isMe }: { user: UserWithRole; isMe: boolean }) {
  const fetcher = useFetcher<ActionAnswer>({ key: `role-${user.id}` });
  const pending = fetcher.formData?.get("role");
  useAnswerToast(fetcher);
  return (
    <NativeSelect
      aria-label={`Acesso de ${user.email}`}
      value={typeof pending === "string" ? pending : (user.role ?? "")}
      disabled={isMe || fetcher.state !== "idle"}
      className="w-44"
      onChange={(event) => fetcher.submit({ userId: user.id, role: event.target.value }, { method: "post", action: "/crm/usuarios" })}
    >
      <option value="">Sem acesso</option>
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {ROLE_LABELS[role]}
        </option>
      ))}
    </NativeSelect>
  );
}

/** Admins grant and revoke CRM access (sign-up is open but grants nothing). */
export default function CrmUsersPage({ loaderData }: Route.ComponentProps) {
  const { users, myId, canDownloadBackup } = loaderData;
  return (
    <div className="grid gap-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">Usuários</h1>
          <p className="text-sm text-muted-foreground">Quem se cadastra no site não tem acesso ao CRM até receber um papel aqui.</p>
        </div>
        {canDownloadBackup && (
          <a href="/crm/backup" className={buttonClass("outline")} download>
            <Icon name="arrow-down" /> Baixar cópia do banco
          </a>
        )}
      </header>
      <Card>
        <div className="hidden md:block">
          <Table>
            <thead>
              <tr>
                <Th>Nome</Th>
                <Th>Email</Th>
                <Th>Cadastro</Th>
                <Th>Acesso</Th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => (
                <tr key={user.id}>
                  <Td className="font-medium">
                    {user.name} {user.id === myId && <Badge variant="secondary">Você</Badge>}
                  </Td>
                  <Td>{user.email}</Td>
                  <Td>{formatDate(user.createdAt)}</Td>
                  <Td>
                    <RoleSelect user={user} isMe={user.id === myId} />
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
        <ul className="grid gap-3 p-3 md:hidden">
          {users.map((user) => (
            <li key={user.id} className="grid gap-2 rounded-lg border border-border p-4">
              <p className="font-semibold">
                {user.name} {user.id === myId && <Badge variant="secondary">Você</Badge>}
              </p>
              <p className="break-all text-sm text-muted-foreground">{user.email}</p>
              <RoleSelect user={user} isMe={user.id === myId} />
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}
