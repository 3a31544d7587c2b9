import type { Role } from "~/db/values";
import { composeMail } from "~/features/mail/compose.server";
import { brokerProfileNow } from "~/features/settings/settings.server";
import type { Env } from "~/lib/env.server";

/**
 * The account e-mails, in Portuguese. Links are built from PUBLIC_URL (never from the request's
 * Host header, which a client chooses) and carry the token in the query string.
 */

type Links = Pick<Env, "publicUrl">;

export const ACCOUNT_PATHS = {
  verify: "/auth/verificar",
  reset: "/auth/redefinir",
  invite: "/auth/convite",
  forgot: "/auth/esqueci",
} as const;

export function accountLink(env: Links, path: string, token: string): string {
  return `${env.publicUrl}${path}?token=${encodeURIComponent(token)}`;
}

const siteName = () => brokerProfileNow().siteName;
const greeting = (name?: string) => (name?.trim() ? `Olá, ${name.trim()}!` : "Olá!");

export function verificationMail(env: Links, name: string, token: string) {
  return composeMail({
    subject: `Confirme seu email — ${siteName()}`,
    greeting: greeting(name),
    paragraphs: [
      `Recebemos um cadastro no site ${siteName()} com este email.`,
      "Para ativar a conta, abra o link abaixo e digite a senha que você escolheu no cadastro. O link vale por 24 horas e só pode ser usado uma vez.",
    ],
    action: { label: "Confirmar meu email", url: accountLink(env, ACCOUNT_PATHS.verify, token) },
    footer: "Se você não se cadastrou, ignore este email: sem a confirmação, ninguém entra com ele.",
  });
}

export function existingAccountMail(env: Links, name: string, resetToken: string) {
  return composeMail({
    subject: `Tentativa de cadastro com seu email — ${siteName()}`,
    greeting: greeting(name),
    paragraphs: [
      `Alguém (talvez você) tentou criar uma conta no site ${siteName()} com este email, mas você já tem uma conta com ele.`,
      "Se esqueceu a senha, crie uma nova pelo link abaixo. Ele vale por 1 hora e só pode ser usado uma vez.",
    ],
    action: { label: "Criar nova senha", url: accountLink(env, ACCOUNT_PATHS.reset, resetToken) },
    footer: "Se não foi você, ignore este email: sua conta e sua senha continuam como estão.",
  });
}

export function passwordResetMail(env: Links, name: string, token: string) {
  return composeMail({
    subject: `Redefinição de senha — ${siteName()}`,
    greeting: greeting(name),
    paragraphs: [
      `Recebemos um pedido para criar uma nova senha para a sua conta no site ${siteName()}.`,
      "Abra o link abaixo e escolha a nova senha. Ele vale por 1 hora e só pode ser usado uma vez; ao trocar a senha, todas as sessões abertas são encerradas.",
    ],
    action: { label: "Criar nova senha", url: accountLink(env, ACCOUNT_PATHS.reset, token) },
    footer: "Se você não pediu uma nova senha, ignore este email: a senha atual continua valendo.",
  });
}

const ROLE_NAMES: Record<Role, string> = { admin: "administrador(a)", corretor: "corretor(a)" };

export function invitationMail(env: Links, input: { inviterName: string; role: Role; token: string }) {
  return composeMail({
    subject: `Convite para o CRM — ${siteName()}`,
    greeting: "Olá!",
    paragraphs: [
      `${input.inviterName} convidou você para acessar o CRM do site ${siteName()} como ${ROLE_NAMES[input.role]}.`,
      "Para aceitar, abra o link abaixo, informe seu nome e escolha uma senha. O convite vale por 72 horas e só pode ser usado uma vez.",
    ],
    action: { label: "Aceitar convite", url: accountLink(env, ACCOUNT_PATHS.invite, input.token) },
    footer: "Se você não esperava este convite, ignore este email.",
  });
}
