import type { Role } from "~/db/values";
import { composeMail } from "~/features/mail/compose.server";
import { LINK_TOKEN_PLACEHOLDER, sealLinkToken } from "~/features/mail/sealed-link.server";
import { brokerProfileNow } from "~/features/settings/settings.server";
import type { Env } from "~/lib/env.server";

/**
 * The account e-mails, in Portuguese. Links are built from PUBLIC_URL (never from the request's
 * Host header, which a client chooses) and carry the token in the query string — but the stored
 * message holds only a placeholder there, and the token travels sealed beside it
 * (mail/sealed-link.server.ts): a copy of the database holds no usable link.
 *
 * No account e-mail carries text a stranger chose: anyone can sign up (or ask for a new password)
 * with any address, so the name typed there never reaches the mailbox of the address's owner.
 */

type Links = Pick<Env, "publicUrl" | "dataDir" | "AUTH_SECRET">;

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
const greeting = "Olá!";

/** A message whose link's token is sealed: the bodies hold the placeholder in its place. */
function withSealedLink(env: Links, token: string, mail: ReturnType<typeof composeMail>) {
  return { ...mail, sealedLinkToken: sealLinkToken(env, token) };
}

const link = (env: Links, path: string) => accountLink(env, path, LINK_TOKEN_PLACEHOLDER);

export function verificationMail(env: Links, token: string) {
  return withSealedLink(env, token, composeMail({
    subject: `Confirme seu email — ${siteName()}`,
    greeting,
    paragraphs: [
      `Recebemos um cadastro no site ${siteName()} com este email.`,
      "Para ativar a conta, abra o link abaixo e digite a senha que você escolheu no cadastro. O link vale por 24 horas e só pode ser usado uma vez.",
    ],
    action: { label: "Confirmar meu email", url: link(env, ACCOUNT_PATHS.verify) },
    footer: "Se você não se cadastrou, ignore este email: sem a confirmação, ninguém entra com ele.",
  }));
}

export function existingAccountMail(env: Links, resetToken: string) {
  return withSealedLink(env, resetToken, composeMail({
    subject: `Tentativa de cadastro com seu email — ${siteName()}`,
    greeting,
    paragraphs: [
      `Alguém (talvez você) tentou criar uma conta no site ${siteName()} com este email, mas você já tem uma conta com ele.`,
      "Se esqueceu a senha, crie uma nova pelo link abaixo. Ele vale por 1 hora e só pode ser usado uma vez.",
    ],
    action: { label: "Criar nova senha", url: link(env, ACCOUNT_PATHS.reset) },
    footer: "Se não foi você, ignore este email: sua conta e sua senha continuam como estão.",
  }));
}

export function passwordResetMail(env: Links, token: string) {
  return withSealedLink(env, token, composeMail({
    subject: `Redefinição de senha — ${siteName()}`,
    greeting,
    paragraphs: [
      `Recebemos um pedido para criar uma nova senha para a sua conta no site ${siteName()}.`,
      "Abra o link abaixo e escolha a nova senha. Ele vale por 1 hora e só pode ser usado uma vez; ao trocar a senha, todas as sessões abertas são encerradas.",
    ],
    action: { label: "Criar nova senha", url: link(env, ACCOUNT_PATHS.reset) },
    footer: "Se você não pediu uma nova senha, ignore este email: a senha atual continua valendo.",
  }));
}

const ROLE_NAMES: Record<Role, string> = { admin: "administrador(a)", corretor: "corretor(a)" };

export function invitationMail(env: Links, input: { inviterName: string; role: Role; token: string }) {
  // An admin's own name (staff, not a stranger), kept to one short line all the same.
  const inviter = input.inviterName.replace(/\s+/g, " ").trim().slice(0, 80) || "Um administrador";
  return withSealedLink(env, input.token, composeMail({
    subject: `Convite para o CRM — ${siteName()}`,
    greeting,
    paragraphs: [
      `${inviter} convidou você para acessar o CRM do site ${siteName()} como ${ROLE_NAMES[input.role]}.`,
      "Para aceitar, abra o link abaixo, informe seu nome e escolha uma senha. O convite vale por 72 horas e só pode ser usado uma vez.",
    ],
    action: { label: "Aceitar convite", url: link(env, ACCOUNT_PATHS.invite) },
    footer: "Se você não esperava este convite, ignore este email.",
  }));
}
