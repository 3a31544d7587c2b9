import type { ReactNode } from "react";
import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { useRootData } from "~/features/site/root-data";

/**
 * The frame of every account page (/auth and its links from e-mails): the site's name, a title,
 * one short line, the content, and the way back to the site.
 */
export function AuthCard({ title, subtitle, children, footer }: { title: string; subtitle?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  const { broker } = useRootData();
  return (
    <main className="flex min-h-screen items-center justify-center bg-sand px-4 py-10">
      <Card className="w-full max-w-md p-6 sm:p-8">
        <Link to="/" className="mb-6 flex items-center justify-center gap-2 font-bold text-navy">
          <span className="grid size-9 place-items-center rounded-md bg-primary text-white">
            <Icon name="house" className="size-5" />
          </span>
          {broker.siteName}
        </Link>
        <h1 className="text-center text-2xl font-bold">{title}</h1>
        {subtitle && <p className="mt-1 text-center text-sm text-muted-foreground">{subtitle}</p>}
        {children}
        {footer}
        <p className="mt-3 text-center text-sm">
          <Link to="/" className="text-muted-foreground underline-offset-4 hover:underline">
            Voltar para o site
          </Link>
        </p>
      </Card>
    </main>
  );
}

/** A notice inside an account page (what happened, what to do next). */
export function AuthNotice({ tone = "info", title, children }: { tone?: "info" | "success" | "warning"; title: string; children?: ReactNode }) {
  const tones = {
    info: "border-border bg-muted",
    success: "border-emerald-200 bg-emerald-50",
    warning: "border-amber-200 bg-amber-50",
  } as const;
  const icons = { info: "mail", success: "circle-check", warning: "circle-alert" } as const;
  return (
    <div role="status" className={`mt-6 rounded-lg border p-4 text-sm ${tones[tone]}`}>
      <p className="flex items-center gap-2 font-semibold">
        <Icon name={icons[tone]} className="size-4 shrink-0" />
        {title}
      </p>
      {children && <div className="mt-2 grid gap-2 text-muted-foreground">{children}</div>}
    </div>
  );
}

const TO_SIGN_IN = { to: "/auth", label: "Ir para o login" };

/** The page an expired, used or mistyped link from an e-mail opens: why, and where to go instead. */
export function DeadLinkCard({ title, children, next = TO_SIGN_IN }: { title: string; children: ReactNode; next?: { to: string; label: string } }) {
  return (
    <AuthCard title={title}>
      <AuthNotice tone="warning" title="Este link não vale mais">
        {children}
        <p>
          <Link to={next.to} className={buttonClass("outline", "sm")}>
            {next.label}
          </Link>
        </p>
      </AuthNotice>
    </AuthCard>
  );
}
