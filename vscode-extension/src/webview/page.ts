// The game view's page: its script and style from the extension, under a strict content
// security policy. Pure, so that it is unit tested.

/** The page of the webview: the script and the style from the extension, under a strict CSP. */
export function gameViewHtml(cspSource: string, scriptUri: string, styleUri: string, n: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource}; img-src ${cspSource} data:; script-src 'nonce-${n}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${styleUri}">
<title>GDL game view</title>
</head>
<body>
<main id="root" class="game-view"></main>
<script nonce="${n}" src="${scriptUri}"></script>
</body>
</html>`;
}
