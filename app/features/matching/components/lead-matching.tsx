import { useState } from "react";
import { useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClass } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { PROPERTY_PURPOSES, PROPERTY_TYPES } from "~/db/values";
import { type ActionAnswer, useAnswerToast } from "~/features/crm/form-helpers";
import { FEATURE_GROUP_LABELS, FEATURE_GROUPS, FEATURES, featuresOf } from "~/features/properties/features";
import { PURPOSE_LABELS, TYPE_LABELS } from "~/features/properties/labels";
import { formatBRL, formatDateTime } from "~/lib/format";
import type { LeadMatching, MatchView, ProfileView } from "../lead-matching.server";
import type { MatchProfile, MatchReason } from "../reasons";

/**
 * The lead page's 'Perfil de busca' section (docs/decisions/023): the lead's profiles, each with
 * the available listings that fit it (reasons per criterion, send by WhatsApp or e-mail), and
 * the listings already sent. Everything shown is computed by the loader; forms post to the page.
 */

const CHANNEL_LABELS = { whatsapp: "WhatsApp", email: "E-mail" } as const;

export function LeadMatchingSection({ matching }: { matching: LeadMatching }) {
  const [editing, setEditing] = useState<{ id: string | null; initial: MatchProfile | null } | null>(null);
  const { profiles, sent, suggestion, canEmail } = matching;
  return (
    <div className="grid gap-5">
      {profiles.length === 0 && !editing && (
        <div className="grid gap-3 text-sm">
          <p className="text-muted-foreground">Nenhum perfil de busca. Diga o que este lead procura para ver os imóveis compatíveis.</p>
          {suggestion && (
            <div className="grid gap-2 rounded-md border border-dashed border-border p-3" data-testid="profile-suggestion">
              <p>
                <strong>Sugestão</strong> a partir do imóvel de interesse: {suggestion.summary}
              </p>
              <Button variant="outline" size="sm" className="w-fit" onClick={() => setEditing({ id: null, initial: suggestion })}>
                <Icon name="check" /> Usar sugestão
              </Button>
            </div>
          )}
        </div>
      )}

      {profiles.map((view, index) =>
        editing?.id === view.profile.id ? (
          <ProfileForm key={view.profile.id} profileId={view.profile.id} initial={view.profile} onDone={() => setEditing(null)} />
        ) : (
          <ProfileBlock key={view.profile.id} view={view} index={index} canEmail={canEmail} onEdit={() => setEditing({ id: view.profile.id, initial: view.profile })} />
        ),
      )}

      {editing && editing.id === null ? (
        <ProfileForm profileId={null} initial={editing.initial} onDone={() => setEditing(null)} />
      ) : (
        <Button variant="outline" className="w-full sm:w-fit" onClick={() => setEditing({ id: null, initial: null })}>
          <Icon name="plus" /> Adicionar perfil
        </Button>
      )}

      <div className="border-t border-border pt-4">
        <h3 className="mb-2 text-sm font-semibold">Já enviados</h3>
        {sent.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nenhum imóvel enviado ainda.</p>
        ) : (
          <ul className="grid gap-2 text-sm" aria-label="Imóveis já enviados" data-testid="sent-matches">
            {sent.map((item) => (
              <li key={item.id} className="flex flex-wrap items-baseline gap-x-2">
                <a href={`/imoveis/${item.propertyId}`} target="_blank" rel="noreferrer" className="font-medium text-primary underline-offset-4 hover:underline">
                  {item.codigo} — {item.title}
                </a>
                <span className="text-muted-foreground">
                  {CHANNEL_LABELS[item.channel]} · {formatDateTime(item.at)}
                  {item.actor ? ` · por ${item.actor}` : ""}
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

function ProfileBlock({ view, index, canEmail, onEdit }: { view: ProfileView; index: number; canEmail: boolean; onEdit: () => void }) {
  const fetcher = useFetcher<ActionAnswer>({ key: `profile-delete-${view.profile.id}` });
  const [confirming, setConfirming] = useState(false);
  useAnswerToast(fetcher);
  const headingId = `perfil-${view.profile.id}`;
  return (
    <section className="grid gap-3 rounded-md border border-border p-3" aria-labelledby={headingId} data-testid="lead-profile">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 id={headingId} className="text-sm font-semibold">
            Perfil {index + 1}
          </h3>
          <p className="break-words text-sm">{view.summary}</p>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" onClick={onEdit}>
            <Icon name="pencil" /> Editar
          </Button>
          {confirming ? (
            <fetcher.Form method="post" className="flex gap-2">
              <input type="hidden" name="intent" value="profile_delete" />
              <input type="hidden" name="profile_id" value={view.profile.id} />
              <Button type="submit" variant="destructive" size="sm" disabled={fetcher.state !== "idle"}>
                Confirmar exclusão
              </Button>
              <Button variant="ghost" size="sm" onClick={() => setConfirming(false)}>
                Cancelar
              </Button>
            </fetcher.Form>
          ) : (
            <Button variant="outline" size="sm" onClick={() => setConfirming(true)}>
              <Icon name="trash-2" /> Excluir
            </Button>
          )}
        </div>
      </div>
      <h4 className="text-sm font-semibold">Imóveis compatíveis ({view.matches.length})</h4>
      {view.matches.length === 0 ? (
        <p className="text-sm text-muted-foreground">Nenhum imóvel disponível atende a este perfil agora.</p>
      ) : (
        <ol className="grid gap-3" aria-label={`Imóveis compatíveis com o perfil ${index + 1}`}>
          {view.matches.map((match) => (
            <MatchItem key={match.id} match={match} canEmail={canEmail} />
          ))}
        </ol>
      )}
    </section>
  );
}

function ReasonChips({ reasons }: { reasons: MatchReason[] }) {
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Critérios">
      {reasons.map((reason) => (
        <li key={reason.key}>
          <Badge variant={reason.ok ? "success" : "secondary"}>
            {reason.text} <span aria-hidden="true">{reason.ok ? "✓" : "✗"}</span>
            <span className="sr-only">{reason.ok ? "(atende)" : "(não atende)"}</span>
          </Badge>
        </li>
      ))}
    </ul>
  );
}

export function MatchItem({ match, canEmail }: { match: MatchView; canEmail: boolean }) {
  const fetcher = useFetcher<ActionAnswer>({ key: `match-send-${match.id}` });
  useAnswerToast(fetcher);
  const busy = fetcher.state !== "idle";
  return (
    <li className="grid gap-2 border-t border-border pt-3 first:border-t-0 first:pt-0" data-testid="match">
      <div className="flex gap-3">
        {match.cover ? (
          <img src={match.cover} alt="" width={80} height={60} loading="lazy" className="h-15 w-20 shrink-0 rounded object-cover" />
        ) : (
          <span className="grid h-15 w-20 shrink-0 place-items-center rounded bg-muted text-muted-foreground" aria-hidden="true">
            <Icon name="image-off" />
          </span>
        )}
        <div className="min-w-0">
          <a href={`/imoveis/${match.id}`} target="_blank" rel="noreferrer" className="break-words text-sm font-medium text-primary underline-offset-4 hover:underline">
            {match.codigo} — {match.title}
          </a>
          <p className="text-sm font-semibold">
            {formatBRL(match.price)}
            {match.purpose === "aluguel" ? "/mês" : ""}
          </p>
          {match.sentAt && (
            <p className="text-xs text-muted-foreground">
              <Icon name="check" className="inline size-3" /> Enviado em {formatDateTime(match.sentAt)}
            </p>
          )}
        </div>
      </div>
      <ReasonChips reasons={match.reasons} />
      <div className="flex flex-wrap gap-2">
        {match.whatsappUrl && (
          <a
            href={match.whatsappUrl}
            target="_blank"
            rel="noreferrer"
            className={buttonClass("whatsapp", "sm")}
            onClick={() => fetcher.submit({ intent: "match_send", channel: "whatsapp", property_id: match.id }, { method: "post" })}
          >
            <Icon name="whatsapp" /> Enviar por WhatsApp
          </a>
        )}
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="match_send" />
          <input type="hidden" name="channel" value="email" />
          <input type="hidden" name="property_id" value={match.id} />
          <Button type="submit" variant="outline" size="sm" disabled={!canEmail || busy} title={canEmail ? undefined : "Este lead não tem e-mail"}>
            <Icon name="mail" /> {busy ? "Enviando..." : "Enviar por e-mail"}
          </Button>
        </fetcher.Form>
      </div>
    </li>
  );
}

const numberText = (value: number | null) => (value === null ? "" : String(value));

function ProfileForm({ profileId, initial, onDone }: { profileId: string | null; initial: MatchProfile | null; onDone: () => void }) {
  const fetcher = useFetcher<ActionAnswer>({ key: `profile-save-${profileId ?? "new"}` });
  useAnswerToast(fetcher, onDone);
  const saving = fetcher.state !== "idle";
  const chosenFeatures = new Set<string>(initial?.features ?? []);
  return (
    <fetcher.Form method="post" className="grid gap-4 rounded-md border border-primary/40 p-3" aria-label={profileId ? "Editar perfil de busca" : "Novo perfil de busca"}>
      <input type="hidden" name="intent" value="profile_save" />
      {profileId && <input type="hidden" name="profile_id" value={profileId} />}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Finalidade">
          <NativeSelect name="purpose" defaultValue={initial?.purpose ?? "venda"}>
            {PROPERTY_PURPOSES.map((purpose) => (
              <option key={purpose} value={purpose}>
                {PURPOSE_LABELS[purpose]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField label="Bairros" hint="Separados por vírgula; vazio = qualquer bairro (até 10)">
          <Input name="neighborhoods" defaultValue={initial?.neighborhoods.join(", ") ?? ""} maxLength={1100} autoComplete="off" />
        </FormField>
      </div>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Tipos (nenhum = qualquer tipo)</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-2">
          {PROPERTY_TYPES.map((type) => (
            <label key={type} className="flex min-h-6 items-center gap-2 text-sm">
              <input type="checkbox" name="types" value={type} defaultChecked={initial?.types.includes(type)} className="size-4" />
              {TYPE_LABELS[type]}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid grid-cols-2 gap-4">
        <FormField label="Preço mínimo (R$)">
          <Input name="price_min" inputMode="numeric" defaultValue={numberText(initial?.price_min ?? null)} maxLength={20} />
        </FormField>
        <FormField label="Preço máximo (R$)">
          <Input name="price_max" inputMode="numeric" defaultValue={numberText(initial?.price_max ?? null)} maxLength={20} />
        </FormField>
        <FormField label="Quartos (mínimo)">
          <Input name="min_bedrooms" type="number" min={0} max={50} defaultValue={numberText(initial?.min_bedrooms ?? null)} />
        </FormField>
        <FormField label="Suítes (mínimo)">
          <Input name="min_suites" type="number" min={0} max={50} defaultValue={numberText(initial?.min_suites ?? null)} />
        </FormField>
        <FormField label="Vagas (mínimo)">
          <Input name="min_parking" type="number" min={0} max={50} defaultValue={numberText(initial?.min_parking ?? null)} />
        </FormField>
        <FormField label="Área mínima (m²)">
          <Input name="min_area" inputMode="decimal" defaultValue={numberText(initial?.min_area ?? null)} maxLength={12} />
        </FormField>
      </div>
      <details className="rounded-md border border-border p-3" open={chosenFeatures.size > 0}>
        <summary className="cursor-pointer text-sm font-medium">Características obrigatórias {chosenFeatures.size > 0 ? `(${chosenFeatures.size})` : ""}</summary>
        {FEATURE_GROUPS.map((group) => (
          <fieldset key={group} className="mt-3">
            <legend className="mb-1 text-xs font-semibold uppercase text-muted-foreground">{FEATURE_GROUP_LABELS[group]}</legend>
            <div className="grid grid-cols-2 gap-x-3 gap-y-2 sm:grid-cols-3">
              {featuresOf(group).map((key) => (
                <label key={key} className="flex min-h-6 items-center gap-2 text-sm">
                  <input type="checkbox" name="features" value={key} defaultChecked={chosenFeatures.has(key)} className="size-4 shrink-0" />
                  {FEATURES[key].label}
                </label>
              ))}
            </div>
          </fieldset>
        ))}
      </details>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="accepts_financing" value="on" defaultChecked={initial?.accepts_financing} className="size-4" />
        Só imóveis que aceitam financiamento
      </label>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={saving}>
          {saving ? "Salvando..." : "Salvar perfil"}
        </Button>
        <Button variant="outline" onClick={onDone}>
          Cancelar
        </Button>
      </div>
    </fetcher.Form>
  );
}
