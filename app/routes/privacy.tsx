import { rootDataFromMatches } from "~/features/site/root-data";
import { whatsappLink } from "~/features/site/broker-profile";
import { pageMeta } from "~/lib/seo";
import { useRootData } from "~/root";
import type { Route } from "./+types/privacy";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { broker, publicUrl } = rootDataFromMatches(matches);
  return pageMeta({
    title: `Política de Privacidade | ${broker.siteName}`,
    description: "Como tratamos os dados enviados pelos formulários do site, por quanto tempo e como pedir acesso ou exclusão (LGPD).",
    url: `${publicUrl}/privacidade`,
    siteName: broker.siteName,
  });
};

/** What the LGPD asks a controller to tell people whose data it keeps. */
export default function PrivacyPage() {
  const { broker } = useRootData();
  const section = "mt-8 text-xl font-semibold";
  return (
    <article className="container-page max-w-3xl py-10 leading-relaxed">
      <h1 className="font-display text-3xl font-bold">Política de Privacidade</h1>
      <p className="mt-2 text-sm text-muted-foreground">Lei Geral de Proteção de Dados (Lei nº 13.709/2018)</p>

      <h2 className={section}>Quem cuida dos seus dados</h2>
      <p className="mt-2">
        O controlador dos dados é {broker.name}, corretor de imóveis ({broker.creci}), em {broker.city}. Contato:{" "}
        <a className="text-primary underline" href={`mailto:${broker.email}`}>{broker.email}</a> ou telefone {broker.phone}.
      </p>

      <h2 className={section}>Quais dados e para quê</h2>
      <p className="mt-2">
        Quando você agenda uma visita ou envia uma mensagem, guardamos o nome, o telefone, o email (quando
        informado), a mensagem e, no agendamento, o imóvel de interesse. Usamos esses dados só para responder ao
        seu contato, combinar visitas e acompanhar a negociação — a base legal é o seu pedido (procedimentos
        preliminares a um contrato) e o seu consentimento ao enviar o formulário. Registramos também o endereço de
        rede de quem envia, por pouco tempo, apenas para evitar envios automáticos (spam).
      </p>

      <h2 className={section}>Com quem compartilhamos</h2>
      <p className="mt-2">
        Não vendemos nem cedemos seus dados. Eles ficam no servidor que hospeda este site. Se você escolher
        continuar a conversa pelo WhatsApp, as mensagens seguem as regras desse aplicativo.
      </p>

      <h2 className={section}>Por quanto tempo</h2>
      <p className="mt-2">
        Guardamos os dados de contato por até 2 anos após a última conversa, ou pelo prazo exigido por lei quando
        houver um contrato (por exemplo, de compra ou locação). Depois disso, eles são excluídos.
      </p>

      <h2 className={section}>Seus direitos</h2>
      <p className="mt-2">
        Você pode pedir, a qualquer momento e sem custo, acesso aos seus dados, correção, exclusão ou informação
        sobre o uso deles, e retirar o consentimento. Basta escrever para{" "}
        <a className="text-primary underline" href={`mailto:${broker.email}`}>{broker.email}</a> ou chamar no{" "}
        <a className="text-primary underline" href={whatsappLink(broker.whatsapp)} target="_blank" rel="noopener noreferrer">WhatsApp</a>.
        Respondemos em até 15 dias. Você também pode reclamar à Autoridade Nacional de Proteção de Dados (ANPD).
      </p>

      <h2 className={section}>Cookies</h2>
      <p className="mt-2">
        O site público não usa cookies de rastreamento nem de publicidade. Apenas a área restrita da equipe (CRM)
        usa um cookie de sessão, necessário para o login.
      </p>
    </article>
  );
}
