import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { type ActionAnswer, useAnswerToast } from "~/features/crm/form-helpers";
import { formatDateTime } from "~/lib/format";
import { PUSH_KIND_LABELS, PUSH_KINDS, type PushKind } from "../kinds";

/**
 * 'Alertas no celular' (issue 25): turn alerts on for this browser, choose which, see and remove
 * one's devices. Subscribing needs the CRM's service worker (registered by the CRM's PWA, scope
 * /crm/); where there is none, or no Push API, the card says the browser cannot.
 */

export type PushCardData = {
  publicKey: string | null;
  devices: { id: string; device: string; createdAt: string; lastUsedAt: string | null; endpoint: string }[];
  preferences: { kinds: PushKind[]; reminderEmail: boolean };
};

type Support = { state: "checking" } | { state: "unsupported" } | { state: "ready"; registration: ServiceWorkerRegistration; endpoint: string | null };

/** The VAPID public key as the Push API wants it. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

function usePushSupport(): [Support, (endpoint: string | null) => void] {
  const [support, setSupport] = useState<Support>({ state: "checking" });
  useEffect(() => {
    let cancelled = false;
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      setSupport({ state: "unsupported" });
      return;
    }
    void (async () => {
      const registration = await navigator.serviceWorker.getRegistration("/crm/").catch(() => undefined);
      if (cancelled) return;
      if (!registration) return setSupport({ state: "unsupported" });
      const subscription = await registration.pushManager.getSubscription().catch(() => null);
      if (!cancelled) setSupport({ state: "ready", registration, endpoint: subscription?.endpoint ?? null });
    })();
    return () => {
      cancelled = true;
    };
  }, []);
  const setEndpoint = (endpoint: string | null) => setSupport((current) => (current.state === "ready" ? { ...current, endpoint } : current));
  return [support, setEndpoint];
}

export function PushAlertsCard({ data }: { data: PushCardData }) {
  const [support, setEndpoint] = usePushSupport();
  const [problem, setProblem] = useState<string | null>(null);
  const subscribe = useFetcher<ActionAnswer>();
  const preferences = useFetcher<ActionAnswer>();
  const remove = useFetcher<ActionAnswer>();
  useAnswerToast(subscribe);
  useAnswerToast(preferences);
  useAnswerToast(remove);

  const here = support.state === "ready" ? support.endpoint : null;
  const registeredHere = here !== null && data.devices.some((device) => device.endpoint === here);

  async function turnOn() {
    if (support.state !== "ready" || !data.publicKey) return;
    setProblem(null);
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        setProblem("Permissão negada. Libere as notificações deste site nas configurações do navegador e tente de novo.");
        return;
      }
      const subscription = await support.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(data.publicKey) });
      const json = subscription.toJSON();
      setEndpoint(subscription.endpoint);
      await subscribe.submit(
        { intent: "push-subscribe", endpoint: subscription.endpoint, p256dh: json.keys?.p256dh ?? "", auth: json.keys?.auth ?? "", userAgent: navigator.userAgent },
        { method: "post", action: "/crm/conta", encType: "application/json" },
      );
    } catch {
      setProblem("Não foi possível ativar os alertas neste navegador. Tente de novo.");
    }
  }

  /** Removing this browser from the list also ends its subscription with the push service. */
  async function onRemove(endpoint: string) {
    if (support.state === "ready" && endpoint === support.endpoint) {
      const subscription = await support.registration.pushManager.getSubscription().catch(() => null);
      await subscription?.unsubscribe().catch(() => false);
      setEndpoint(null);
    }
  }

  return (
    <Card className="min-w-0 max-w-xl p-4 sm:p-6">
      <h2 id="push-title" className="flex items-center gap-2 text-lg font-semibold">
        <Icon name="bell" />
        Alertas no celular
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Receba um aviso no aparelho quando chegar um lead, na hora do próximo contato e antes das visitas. Os avisos mostram só o primeiro nome do lead.
      </p>

      <div className="mt-4" aria-live="polite">
        {support.state === "checking" ? (
          <p className="text-sm text-muted-foreground">Verificando este navegador...</p>
        ) : support.state === "unsupported" || !data.publicKey ? (
          <p className="rounded-md bg-muted p-3 text-sm">Este navegador não permite alertas.</p>
        ) : registeredHere ? (
          <p className="flex items-center gap-2 text-sm font-medium text-success">
            <Icon name="circle-check" />
            Alertas ativados neste aparelho.
          </p>
        ) : (
          <Button type="button" className="h-auto min-h-11 whitespace-normal py-2 text-left" onClick={() => void turnOn()} disabled={subscribe.state !== "idle"}>
            <Icon name="bell" />
            {subscribe.state !== "idle" ? "Ativando..." : "Ativar alertas neste aparelho"}
          </Button>
        )}
        {problem ? (
          <p role="alert" className="mt-2 text-sm text-destructive">
            {problem}
          </p>
        ) : null}
      </div>

      <preferences.Form method="post" action="/crm/conta" className="mt-6 grid gap-3">
        <input type="hidden" name="intent" value="push-preferences" />
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium">Quais alertas receber</legend>
          {PUSH_KINDS.map((kind) => (
            <label key={kind} className="flex min-h-6 items-center gap-2 text-sm">
              <input type="checkbox" name="kinds" value={kind} defaultChecked={data.preferences.kinds.includes(kind)} className="size-4 shrink-0" />
              {PUSH_KIND_LABELS[kind]}
            </label>
          ))}
        </fieldset>
        <label className="flex min-h-6 items-center gap-2 text-sm">
          <input type="checkbox" name="reminderEmail" value="on" defaultChecked={data.preferences.reminderEmail} className="size-4 shrink-0" />
          Lembretes de próximo contato também por e-mail
        </label>
        <div>
          <Button type="submit" variant="outline" disabled={preferences.state !== "idle"}>
            {preferences.state !== "idle" ? "Salvando..." : "Salvar preferências"}
          </Button>
        </div>
      </preferences.Form>

      <h3 className="mt-6 text-base font-semibold">Aparelhos com alertas</h3>
      {data.devices.length === 0 ? (
        <p className="mt-1 text-sm text-muted-foreground">Nenhum aparelho recebe alertas.</p>
      ) : (
        <ul className="mt-2 grid gap-2">
          {data.devices.map((device) => (
            <li key={device.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-border p-3">
              <div className="min-w-0 text-sm">
                <p className="font-medium">
                  {device.device}
                  {device.endpoint === here ? <span className="ml-1 font-normal text-muted-foreground">(este aparelho)</span> : null}
                </p>
                <p className="text-muted-foreground">
                  Ativado em {formatDateTime(device.createdAt)} · {device.lastUsedAt ? `último alerta em ${formatDateTime(device.lastUsedAt)}` : "nenhum alerta ainda"}
                </p>
              </div>
              <remove.Form method="post" action="/crm/conta" onSubmit={() => void onRemove(device.endpoint)}>
                <input type="hidden" name="intent" value="push-remove" />
                <input type="hidden" name="id" value={device.id} />
                <Button type="submit" variant="outline" size="sm" aria-label={`Remover ${device.device}, ativado em ${formatDateTime(device.createdAt)}`}>
                  <Icon name="trash-2" />
                  Remover
                </Button>
              </remove.Form>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
