import { useRef } from "react";
import { data, useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { Pagination } from "~/components/ui/pagination";
import { Table, Td, Th } from "~/components/ui/table";
import { ROLES, type Role } from "~/db/values";
import { useCheckedSubmit } from "~/features/auth/components/form-hooks";
import { requireAdmin } from "~/features/auth/guard.server";
import { inviteUser, listPendingInvitations } from "~/features/auth/invitations.server";
import { inviteSchema } from "~/features/auth/schema";
import { changeUserRole, listUsersPage, type UserWithRole } from "~/features/auth/users.server";
import { ListSearch } from "~/features/crm/components/list-search";
import { type ActionAnswer, useAnswerToast } from "~/features/crm/form-helpers";
import { formatDate, formatDateTime } from "~/lib/format";
import { firstIssueMessage } from "~/lib/form-data";
import { parseTableQuery, SEARCH_PARAM, withPage } from "~/lib/pagination";
import { asString, readBody, UnreadableBody } from "~/lib/request-body.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-users";

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const { db, database, mail } = await getRuntime();
  const query = parseTableQuery(new URL(request.url).searchParams);
  return {
    ...(await listUsersPage(db, query)),
    invitations: await listPendingInvitations(db),
    myId: admin.id,
    canDownloadBackup: database.kind === "pglite",
    mailEnabled: mail.enabled,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const body = await readBody(request);
  if (body instanceof UnreadableBody) return data({ ok: false, message: body.message }, { status: 400 });
  const runtime = await getRuntime();

  if (body.intent === "invite") {
    const parsed = inviteSchema.safeParse({ email: asString(body.email), role: asString(body.role) });
    if (!parsed.success) return data({ ok: false, message: firstIssueMessage(parsed.error) }, { status: 400 });
    const result = await inviteUser(runtime, admin, parsed.data);
    if (!result.ok) return data({ ok: false, message: result.message }, { status: result.status });
    return { ok: true, message: `Convite enviado para ${parsed.data.email}.` };
  }

  const userId = asString(body.userId);
  const roleValue = asString(body.role) ?? "";
  if (!userId || !(roleValue === "" || (ROLES as readonly string[]).includes(roleValue))) {
    return data({ ok: false, message: "Pedido inválido" }, { status: 400 });
  }
  const result = await changeUserRole(runtime.db, admin, userId, (roleValue || null) as Role | null);
  if (!result.ok) return data({ ok: false, message: result.message }, { status: result.status });
  return { ok: true, message: roleValue ? "Acesso atualizado." : "Acesso removido." };
}

export const meta: Route.MetaFunction = () => [{ title: "Usuários | CRM" }];

const ROLE_LABELS: Record<Role, string> = { admin: "Administrador", corretor: "Corretor" };

function RoleSelect({ user, isMe }: { user: UserWithRole; isMe: boolean }) {
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

function VerifiedBadge({ verified }: { verified: boolean }) {
  return verified ? <Badge variant="success">Email confirmado</Badge> : <Badge variant="warning">Email não confirmado</Badge>;
}

function InviteForm({ mailEnabled }: { mailEnabled: boolean }) {
  const fetcher = useFetcher<ActionAnswer>({ key: "invite" });
  const form = useRef<HTMLFormElement>(null);
  useAnswerToast(fetcher, () => form.current?.reset());
  const busy = fetcher.state !== "idle";
  const onSubmit = useCheckedSubmit("inviteSchema", fetcher);

  return (
    <Card className="p-4 sm:p-6">
      <h2 className="text-lg font-semibold">Convidar pessoa</h2>
      <p className="mt-1 text-sm text-muted-foreground">
        A pessoa recebe um link por email, válido por 72 horas, para escolher a senha e entrar já com o acesso escolhido.
      </p>
      {!mailEnabled && (
        <p className="mt-2 text-sm font-medium text-amber-800">
          O envio de emails está desligado (SMTP_URL não configurado): o convite fica na fila até ser configurado.
        </p>
      )}
      <fetcher.Form
        ref={form}
        method="post"
        action="/crm/usuarios"
        noValidate
        onSubmit={onSubmit}
        className="mt-4 grid gap-4 sm:grid-cols-[minmax(0,1fr)_auto_auto] sm:items-end"
      >
        <input type="hidden" name="intent" value="invite" />
        <div className="grid gap-1.5">
          <Label htmlFor="invite-email">Email</Label>
          <Input id="invite-email" name="email" type="email" autoComplete="off" inputMode="email" required maxLength={255} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="invite-role">Acesso</Label>
          <NativeSelect id="invite-role" name="role" defaultValue="corretor" className="sm:w-44">
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <Button type="submit" disabled={busy}>
          <Icon name="mail" />
          {busy ? "Enviando..." : "Enviar convite"}
        </Button>
      </fetcher.Form>
    </Card>
  );
}

/** Admins invite people and grant or revoke CRM access (sign-up is open but grants nothing). */
export default function CrmUsersPage({ loaderData }: Route.ComponentProps) {
  const { users, total, page, pageCount, search, invitations, myId, canDownloadBackup, mailEnabled } = loaderData;
  return (
    <div className="grid gap-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">Usuários</h1>
          <p className="text-sm text-muted-foreground">
            Quem se cadastra no site não tem acesso ao CRM até receber um papel aqui, e só depois de confirmar o email.
          </p>
        </div>
        {canDownloadBackup && (
          <a href="/crm/backup" className={buttonClass("outline")} download>
            <Icon name="arrow-down" /> Baixar cópia do banco
          </a>
        )}
      </header>
      <InviteForm mailEnabled={mailEnabled} />
      {invitations.length > 0 && (
        <Card className="p-4 sm:p-6">
          <h2 className="text-lg font-semibold">Convites pendentes</h2>
          <ul className="mt-3 grid gap-2 text-sm">
            {invitations.map((invitation) => (
              <li key={invitation.id} className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <span className="break-all font-medium">{invitation.email}</span>
                <Badge variant="secondary">{ROLE_LABELS[invitation.role]}</Badge>
                <span className="text-muted-foreground">vale até {formatDateTime(invitation.expiresAt)}</span>
              </li>
            ))}
          </ul>
        </Card>
      )}
      <section aria-labelledby="users-heading" className="grid gap-4">
        <div>
          <h2 id="users-heading" className="text-lg font-semibold">
            Contas
          </h2>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {total} {total === 1 ? "conta" : "contas"}
            {search ? ` para “${search}”` : ""}
          </p>
        </div>
        <ListSearch id="user-search" label="Buscar usuários" placeholder="Nome ou email" value={search} />
        <Card>
          {users.length === 0 && <p className="p-10 text-center text-muted-foreground">Nenhum usuário encontrado para esta busca</p>}
          <div className={users.length === 0 ? "hidden" : "hidden md:block"}>
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
                    <Td>
                      <span className="break-all">{user.email}</span> <VerifiedBadge verified={user.emailVerified} />
                    </Td>
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
                <p className="break-all text-sm text-muted-foreground">
                  {user.email} <VerifiedBadge verified={user.emailVerified} />
                </p>
                <RoleSelect user={user} isMe={user.id === myId} />
              </li>
            ))}
          </ul>
        </Card>
        <Pagination
          page={page}
          pageCount={pageCount}
          hrefFor={(target) => `/crm/usuarios${withPage(search ? { [SEARCH_PARAM]: search } : {}, target)}`}
        />
      </section>
    </div>
  );
}
