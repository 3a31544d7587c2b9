import { buttonClass } from "~/components/ui/button";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { Pagination } from "~/components/ui/pagination";
import { Table, Td, Th } from "~/components/ui/table";
import { InviteForm } from "~/features/auth/components/invite-form";
import { PendingInvitations } from "~/features/auth/components/pending-invitations";
import { DeleteUserButton, describeUserDeletion, RoleSelect, VerifiedBadge } from "~/features/auth/components/user-controls";
import type { UserWithRole } from "~/features/auth/users.server";
import { DeleteConfirm, useRecordDialogs } from "~/features/crm/components/delete-confirm";
import { usersPageAction, usersPageData } from "~/features/auth/users-page.server";
import { ListSearch } from "~/features/crm/components/list-search";
import { formatDate } from "~/lib/format";
import { SEARCH_PARAM, withPage } from "~/lib/pagination";
import type { Route } from "./+types/crm-users";

export async function loader({ request }: Route.LoaderArgs) {
  return usersPageData(request);
}

export async function action({ request }: Route.ActionArgs) {
  return usersPageAction(request);
}

export const meta: Route.MetaFunction = () => [{ title: "Usuários | CRM" }];

/** Admins invite people, grant or revoke CRM access (sign-up is open but grants nothing) and delete accounts. */
export default function CrmUsersPage({ loaderData }: Route.ComponentProps) {
  const { users, total, page, pageCount, search, invitations, myId, canDownloadBackup, mailEnabled } = loaderData;
  const { deleting, askDelete, closeDelete } = useRecordDialogs<UserWithRole>();
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
      <PendingInvitations invitations={invitations} />
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
                  <Th>
                    <span className="sr-only">Ações</span>
                  </Th>
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
                    <Td className="text-right">{user.id !== myId && <DeleteUserButton user={user} onClick={() => askDelete(user)} />}</Td>
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
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <RoleSelect user={user} isMe={user.id === myId} />
                  {user.id !== myId && <DeleteUserButton user={user} onClick={() => askDelete(user)} />}
                </div>
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
      <DeleteConfirm record={deleting} onClose={closeDelete} action="/crm/usuarios" title="Excluir esta conta?" describe={describeUserDeletion} />
    </div>
  );
}
