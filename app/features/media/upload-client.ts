/**
 * Sends one photo to /crm/midia (the photo pipeline) and resolves with its URL. XHR, not fetch:
 * fetch cannot report upload progress, and a 4G upload of a few MB takes a while.
 */
export function uploadPhoto(file: File, onProgress: (fraction: number) => void, purpose: "listing" | "portrait" = "listing"): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", "/crm/midia");
    request.responseType = "json";
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      const body = request.response as { url?: string; error?: string } | null;
      if (request.status === 200 && body?.url) resolve(body.url);
      else reject(new Error(body?.error ?? (request.status === 413 ? "arquivo maior que 5 MB" : `falha no envio (${request.status})`)));
    };
    request.onerror = () => reject(new Error("sem conexão com o servidor"));
    const form = new FormData();
    form.append("file", file);
    // The watermark (issue 22) goes on listing photos, never on the broker's portrait.
    form.append("purpose", purpose);
    request.send(form);
  });
}
