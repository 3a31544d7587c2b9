import { useRef } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { ROLES } from "~/db/values";
import { type ActionAnswer, useAnswerToast } from "~/features/crm/form-helpers";
import { useCheckedSubmit } from "./form-hooks";
import { ROLE_LABELS } from "./user-controls";

/** 'Convidar pessoa' on /crm/usuarios: an e-mail and a role; the link goes out by e-mail. */
export function InviteForm({ mailEnabled }: { mailEnabled: boolean }) {
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
