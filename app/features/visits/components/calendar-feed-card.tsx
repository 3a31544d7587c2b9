import { useState } from "react";
import { useFetcher } from "react-router";
import { Button, buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { toast } from "~/components/ui/toaster";
import { useAnswerToast } from "~/features/crm/form-helpers";
import { formatDate } from "~/lib/format";
import type { VisitActionAnswer } from "../page.server";

/**
 * 'Agenda no celular': the signed-in staff member's private feed URL. Only the token's hash is
 * stored, so the URL is shown once, right after it is made; losing it means making a new one,
 * which also turns the old one off.
 */
export function CalendarFeedCard({ active, createdAt }: { active: boolean; createdAt: string | null }) {
  const fetcher = useFetcher<VisitActionAnswer>({ key: "calendar-feed" });
  useAnswerToast(fetcher);
  const [confirming, setConfirming] = useState(false);
  const busy = fetcher.state !== "idle";
  const url = fetcher.data?.ok ? fetcher.data.feedUrl : undefined;

  const post = (intent: "feed" | "feed-revoke") => fetcher.submit({ intent }, { method: "post", action: "/crm/visitas" });

  async function copy() {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      toast.success("Endereço copiado!");
    } catch {
      toast.error("Não foi possível copiar. Selecione o endereço e copie manualmente.");
    }
  }

  return (
    <Card className="grid gap-4 p-4 sm:p-5">
      <div>
        <h2 id="agenda-no-celular" className="flex items-center gap-2 text-lg font-bold">
          <Icon name="calendar-plus" /> Agenda no celular
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          Assine as visitas no calendário do celular (Google Agenda, Calendário do iPhone, Outlook): elas aparecem e se atualizam
          sozinhas. Como a imobiliária é pequena, a agenda traz as visitas de toda a equipe, não só as suas — dos últimos 30 dias
          em diante; as canceladas saem do calendário. O endereço é pessoal e secreto: quem o tiver vê as visitas, então não o
          compartilhe. Por segurança, ele é desativado quando você usa &lsquo;Sair&rsquo; ou troca a senha; depois, crie um novo aqui.
        </p>
      </div>

      {url ? (
        <div className="grid gap-2 rounded-md border border-amber-300 bg-amber-50 p-3">
          <Label htmlFor="calendar-feed-url">Endereço da sua agenda</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input id="calendar-feed-url" readOnly value={url} className="font-mono text-xs" onFocus={(event) => event.target.select()} />
            <Button variant="outline" onClick={copy}>
              <Icon name="copy" /> Copiar
            </Button>
          </div>
          <p className="text-sm text-amber-950">
            Copie agora: por segurança, guardamos só uma impressão digital dele e não poderemos mostrá-lo de novo.
          </p>
          <ul className="list-disc pl-5 text-sm text-amber-950">
            <li>Google Agenda (no computador): Outras agendas → + → Do URL → cole o endereço.</li>
            <li>
              iPhone: Ajustes → Calendário → Contas → Adicionar Conta → Outra → Adicionar Calendário Assinado, ou{" "}
              <a href={url.replace(/^https?:/, "webcal:")} className="font-semibold underline underline-offset-4">
                toque aqui para assinar
              </a>
              .
            </li>
          </ul>
        </div>
      ) : active ? (
        <p className="text-sm">
          <Icon name="circle-check" className="mr-1 inline text-green-700" />
          Endereço ativo{createdAt ? ` desde ${formatDate(createdAt)}` : ""}. Ele não pode ser mostrado de novo; se o perdeu, gere um
          novo (o antigo deixa de funcionar).
        </p>
      ) : (
        <p className="text-sm">Você não tem um endereço de agenda ativo.</p>
      )}

      <div className="flex flex-wrap gap-2">
        {active || url ? (
          <>
            <Button variant="outline" disabled={busy} onClick={() => setConfirming(true)}>
              <Icon name="history" /> Gerar novo endereço
            </Button>
            <button type="button" className={buttonClass("ghost")} disabled={busy} onClick={() => post("feed-revoke")}>
              <Icon name="x" /> Desativar
            </button>
          </>
        ) : (
          <Button disabled={busy} onClick={() => post("feed")}>
            <Icon name="link" /> Criar endereço da agenda
          </Button>
        )}
      </div>

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Gerar um novo endereço?"
        description="O endereço atual deixa de funcionar: os calendários que o assinaram param de receber as visitas até você assinar o novo."
        confirmLabel="Gerar novo endereço"
        onConfirm={() => {
          setConfirming(false);
          post("feed");
        }}
      />
    </Card>
  );
}
