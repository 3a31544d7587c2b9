import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Icon, type IconName } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { type AccountSchemaName, useCheckedSubmit } from "./form-hooks";

/**
 * A password someone chooses (sign-up, invitation, reset, change): the rules in a hint the field
 * points to, so a screen reader says them too. The server checks them again, and more.
 */
export function NewPasswordField({ id, name, label }: { id: string; name: string; label: string }) {
  const hintId = `${id}-hint`;
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} name={name} type="password" autoComplete="new-password" required minLength={8} maxLength={128} aria-describedby={hintId} />
      <p id={hintId} className="text-xs text-muted-foreground">
        Pelo menos 8 caracteres. Evite senhas comuns, como 12345678.
      </p>
    </div>
  );
}

/** An account page's submit button: disabled, saying "Aguarde...", while its form is on its way (to `action`). */
export function AuthSubmitButton({ action, icon, children }: { action: string; icon: IconName; children: ReactNode }) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formAction?.startsWith(action) === true;
  return (
    <Button type="submit" size="lg" disabled={submitting}>
      <Icon name={icon} />
      {submitting ? "Aguarde..." : children}
    </Button>
  );
}

/**
 * The form of a page an e-mail link opens, checked with `schema` before it goes: the link's token
 * goes along, and so does the account's address, which lets the browser's password manager file
 * the password under the right account.
 */
export function LinkForm({
  action,
  schema,
  link,
  children,
}: {
  action: string;
  schema: AccountSchemaName;
  link: { token: string; email: string };
  children: ReactNode;
}) {
  const onSubmit = useCheckedSubmit(schema);
  return (
    <Form method="post" action={action} noValidate onSubmit={onSubmit} className="mt-6 grid gap-4">
      <input type="hidden" name="token" value={link.token} />
      <input type="hidden" name="username" autoComplete="username" value={link.email} />
      {children}
    </Form>
  );
}
