/**
 * The help articles of /resources, per area of the console, in English and French. They are
 * translations (keyed `resources.articles.<id>.*`) so that i18next serves them like every other
 * string; the search index (./search.ts) is built from the current language's text.
 *
 * An article: `title`, `summary` (one line), `body` (paragraphs separated by a blank line; lines
 * starting with "- " are steps), `keywords` (extra words people search with).
 */

/** The areas of the console, in the order the help lists them, and where each is acted on. */
export const HELP_AREAS = [
  { id: 'inbox', path: '/chats' },
  { id: 'channels', path: '/channels' },
  { id: 'templates', path: '/templates' },
  { id: 'broadcasts', path: '/broadcast' },
  { id: 'bots', path: '/bots' },
  { id: 'flows', path: '/flows' },
  { id: 'team', path: '/team' },
  { id: 'billing', path: '/pricing' },
  { id: 'account', path: '/account' },
] as const;

export type HelpAreaId = (typeof HELP_AREAS)[number]['id'];

/** Every article id with its area (the text is in the translations below). */
export const HELP_ARTICLES: { id: string; area: HelpAreaId }[] = [
  { id: 'inboxReply', area: 'inbox' },
  { id: 'inboxOrganise', area: 'inbox' },
  { id: 'inboxPauseBot', area: 'inbox' },
  { id: 'channelsWhatsapp', area: 'channels' },
  { id: 'channelsPages', area: 'channels' },
  { id: 'channelsWindow', area: 'channels' },
  { id: 'templatesCreate', area: 'templates' },
  { id: 'templatesReview', area: 'templates' },
  { id: 'broadcastsSend', area: 'broadcasts' },
  { id: 'broadcastsOptOut', area: 'broadcasts' },
  { id: 'botsBuild', area: 'bots' },
  { id: 'botsOperations', area: 'bots' },
  { id: 'flowsCreate', area: 'flows' },
  { id: 'flowsStart', area: 'flows' },
  { id: 'teamInvite', area: 'team' },
  { id: 'teamPermissions', area: 'team' },
  { id: 'billingPlans', area: 'billing' },
  { id: 'billingInvoices', area: 'billing' },
  { id: 'accountProfile', area: 'account' },
  { id: 'accountCompanies', area: 'account' },
];

const en = {
  areas: {
    inbox: 'Inbox',
    channels: 'Channels',
    templates: 'Templates',
    broadcasts: 'Broadcasts',
    bots: 'Bots',
    flows: 'Flows',
    team: 'Team & permissions',
    billing: 'Billing',
    account: 'Account',
  },
  articles: {
    inboxReply: {
      title: 'Answer a customer',
      summary: 'Open a conversation in Chats, write, attach a file or insert a saved reply.',
      body:
        'Every message your customers send on a connected channel lands in Chats. Conversations with unread messages show a counter; the newest activity is on top.\n\n' +
        '- Open a conversation in the list and read its history; older messages load as you scroll up.\n' +
        '- Write in the composer at the bottom and press Enter to send (Shift+Enter starts a new line).\n' +
        '- Attach an image, a video, an audio file or a document with the paper clip.\n' +
        '- Type / to pick one of your saved replies, or manage them with the Saved replies button.\n\n' +
        'On WhatsApp you can answer freely for 24 hours after the customer’s last message. After that, the composer asks you to send an approved template instead.',
      keywords: 'chat message reply send answer attachment file saved replies quick reply composer unread conversation room',
    },
    inboxOrganise: {
      title: 'Tag, assign and find conversations',
      summary: 'Tags sort conversations; a tag that is a colleague’s e-mail assigns it to them.',
      body:
        'Add tags to a conversation from its header: use them for topics (order, refund, VIP) and filter the list by tag.\n\n' +
        'A tag written as an e-mail address (for example anna@yourcompany.com) is an assignment: the conversation is assigned to that team member. In companies where agents only see their own conversations, an agent sees the conversations tagged with their e-mail.\n\n' +
        'Search finds a contact by name or by phone number / external id; combine it with the tag and channel filters. Block a customer who abuses the service: they can no longer write to you until you unblock them.',
      keywords: 'tag tags label assign assignment agent filter search contact block unblock find',
    },
    inboxPauseBot: {
      title: 'Take over from the bot',
      summary: 'Pause the bot for one customer while you talk to them yourself.',
      body:
        'When a bot runs on a channel, it answers new messages automatically. To talk to a customer yourself, pause the bot for that conversation: it stays silent for one day by default, or for the number of days you choose.\n\n' +
        'Pausing again resumes the bot at once. A paused conversation shows when the pause ends. Bots can also hand a conversation over to your team with a hand-over step; it then appears unassigned in Chats.',
      keywords: 'pause bot resume hand over handover human agent takeover stop bot',
    },
    channelsWhatsapp: {
      title: 'Connect a WhatsApp number',
      summary: 'Channels → Connect WhatsApp runs Meta’s embedded signup.',
      body:
        'WhatsApp is connected through Meta’s embedded signup: you log in with Facebook, choose or create a WhatsApp Business account and verify your phone number.\n\n' +
        '- Open Channels and choose Connect WhatsApp.\n' +
        '- Follow Meta’s window to the end; do not close it before it says you are done.\n' +
        '- Back in the console, the number shows as connected once the signup is completed.\n\n' +
        'If the signup finishes only partly, the number still works and the channel page says what is left to do. Keep an eye on the quality rating and messaging limit shown on the channel: they limit how many customers you may start conversations with per day.',
      keywords: 'whatsapp connect number phone embedded signup meta facebook business account waba verify quality limit',
    },
    channelsPages: {
      title: 'Connect a Facebook page or Instagram account',
      summary: 'Messenger and Instagram messages come in through your Facebook page.',
      body:
        'Choose Connect Facebook page or Connect Instagram account on the Channels page, log in with Facebook and pick the pages to connect. An Instagram professional account must be linked to one of your Facebook pages.\n\n' +
        'Once connected, messages to the page and the Instagram account arrive in Chats, and bots can answer them. Disconnect a channel from its menu on the Channels page; its conversations stay in your history.',
      keywords: 'facebook page messenger instagram connect social disconnect channel',
    },
    channelsWindow: {
      title: 'The 24-hour window',
      summary: 'Free-form messages only within 24 hours of the customer’s last message.',
      body:
        'Messaging platforms let a business send free-form messages only within 24 hours of the customer’s last message. The composer shows how much time is left.\n\n' +
        'Outside the window, on WhatsApp, send an approved template (the composer offers them); the customer’s answer opens a new window. Broadcasts always use templates for this reason.',
      keywords: '24 hours window session expired template outside free form message',
    },
    templatesCreate: {
      title: 'Create a WhatsApp template',
      summary: 'Templates → Create: category, language, header, body with variables, buttons.',
      body:
        'Templates are the messages WhatsApp lets you send first, and the only ones a broadcast can send.\n\n' +
        '- Open Templates and choose Create, then the category: marketing, utility or authentication.\n' +
        '- Give a name in lower case with underscores, pick the language.\n' +
        '- Write the body; variables are written {{1}}, {{2}}… with an example for each.\n' +
        '- Add an optional header (text, image, video or document), a footer and buttons (quick replies, a link, a phone number).\n\n' +
        'A carousel template shows up to ten cards, each with its own media and buttons: choose Create carousel.',
      keywords: 'template create whatsapp category marketing utility authentication variables header footer buttons carousel cards language',
    },
    templatesReview: {
      title: 'Template review and status',
      summary: 'Meta reviews every new template: pending, approved or rejected.',
      body:
        'A new or edited template is sent to Meta for review and shows as pending. Most reviews take minutes, some up to a day. An approved template can be used at once; a rejected one shows Meta’s reason: change the wording and submit it again.\n\n' +
        'Meta also rates templates by quality. A paused or disabled template cannot be sent; the template page shows why and its history of status changes.',
      keywords: 'review approved rejected pending status quality paused disabled reason meta',
    },
    broadcastsSend: {
      title: 'Send a broadcast',
      summary: 'Broadcast → New broadcast: a channel, an approved template, the recipients, now or later.',
      body:
        '- Open Broadcast and choose New broadcast, then the type.\n' +
        '- Pick the channel and an approved template, and fill its variables (the same text for all, or a column of your file per recipient).\n' +
        '- Choose the recipients: upload a CSV of phone numbers or pick contacts.\n' +
        '- Send now or schedule a date and time.\n\n' +
        'The broadcast list shows each broadcast’s progress; its report counts messages sent, delivered, read and failed, and can be downloaded.',
      keywords: 'broadcast campaign send bulk mass message schedule recipients csv report delivered read failed',
    },
    broadcastsOptOut: {
      title: 'Opt-outs',
      summary: 'Customers who write STOP are never sent broadcasts again.',
      body:
        'A customer who answers STOP (or one of your opt-out keywords), or who opts out of marketing messages in WhatsApp, is added to the opt-out list; broadcasts skip them automatically. A bot can also record an opt-out with its opt-out action.\n\n' +
        'Admins can download the list as a CSV from the Downloads section of this page.',
      keywords: 'opt out optout stop unsubscribe consent list csv marketing',
    },
    botsBuild: {
      title: 'Build a bot',
      summary: 'Bots → Create bot, then draw its steps and buttons on the canvas.',
      body:
        'A bot is a set of steps. Each step sends one or more messages (text or media) and may offer buttons; each button leads to another step.\n\n' +
        '- Open Bots and choose Create bot: its canvas opens.\n' +
        '- Select a step to edit its messages, buttons (a new button is labelled "Button") and next step.\n' +
        '- Add actions to a step: tag the customer, hand over to an agent, record an opt-out, call an operation.\n' +
        '- Try it in the test chat before assigning the bot to a channel.\n\n' +
        'Only one bot answers on a channel. Pause it for one customer from Chats.',
      keywords: 'bot chatbot create canvas step steps button option next step message actions test chat assign channel',
    },
    botsOperations: {
      title: 'Call your systems from a bot (operations)',
      summary: 'An operation is an HTTP call whose answer fills the bot’s variables.',
      body:
        'Operations let a bot look up an order, a booking or a customer in your own system. An operation has a method, a URL, headers and a body with variables, and a response mapping that copies fields of the answer into variables the next messages can use.\n\n' +
        'Generate one from an example request and answer, then call it from a step’s actions. Calls time out after a few seconds and may not reach private addresses.',
      keywords: 'operation http api call webhook integration variables response mapping lookup',
    },
    flowsCreate: {
      title: 'Create a flow',
      summary: 'A guided conversation: an intro message, ordered steps, a call to action.',
      body:
        'A flow guides a customer through a conversation you write once: an intro message (with optional media), steps in order with options, and a call to action at the end.\n\n' +
        '- Open Flows and choose Create; give the flow a name, a description, your company name and domain (each at most 128 characters).\n' +
        '- Edit the flow to write the intro (at most 512 characters), the steps and the call to action (at most 20 characters).\n' +
        '- Save: earlier versions are kept and can be restored.',
      keywords: 'flow create guided conversation intro message steps options call to action version restore',
    },
    flowsStart: {
      title: 'How customers start a flow',
      summary: 'By a keyword, or as a channel’s default flow for new conversations.',
      body:
        'A customer starts a flow by writing one of its keywords (the demo’s tour flow starts with "tour"). A channel may also have a default flow that greets every new conversation when no keyword matched.\n\n' +
        'The flow editor shows, per step, how many customers reached it and where they stopped, to help you shorten the steps people leave.',
      keywords: 'start flow keyword trigger default flow channel new conversation statistics',
    },
    teamInvite: {
      title: 'Invite your team',
      summary: 'Team → Invite: one or more e-mail addresses and a role.',
      body:
        '- Open Team and choose Invite.\n' +
        '- Enter one or more e-mail addresses and choose their role.\n' +
        '- Each person receives an e-mail with a link to join; pending invitations are listed until accepted.\n\n' +
        'Change a member’s role from the team list, or remove them: they lose access to the company at once.',
      keywords: 'team invite invitation member add remove colleague email role',
    },
    teamPermissions: {
      title: 'Roles and permissions',
      summary: 'Admin, manager and agent; what each role may view and manage per area.',
      body:
        'Admins may do everything. Managers manage the daily work but not billing or permissions. Agents answer conversations and can view most pages without changing them.\n\n' +
        'Admins can adjust, on the Permissions page, what each role may view and manage in every area (channels, flows, chats, stats, team, billing…). A member who opens a page their role may not view sees "You do not have permission to access this page."',
      keywords: 'role roles admin manager agent permission permissions access view manage rights',
    },
    billingPlans: {
      title: 'Plans and subscription',
      summary: 'Pricing shows the plans; subscribing goes through a secure checkout.',
      body:
        'Every company starts on the Free plan. Plans differ by their limits: seats, channels, bots and broadcast recipients per month. When a limit is reached, the console says which plan lifts it.\n\n' +
        '- Open Pricing, choose monthly or yearly and a plan.\n' +
        '- Pay on the checkout page; you come back to Account with the new plan active.\n' +
        '- To stop, cancel from Account: the plan stays active until the end of the paid period, and you can resume before then.\n\n' +
        'Only members with billing access see these pages.',
      keywords: 'plan plans pricing subscription subscribe upgrade cancel resume free plan limits seats checkout payment',
    },
    billingInvoices: {
      title: 'Invoices and payment method',
      summary: 'Account lists your invoices; change the card through the payment portal.',
      body:
        'The Account page lists every invoice with its number, date, amount and status, and links to its PDF and online version.\n\n' +
        'To change the card or billing details, open the payment portal from Account. If a payment fails, the subscription shows it and the provider tries again; update the card to avoid losing the plan.',
      keywords: 'invoice invoices pdf receipt payment card portal failed payment billing details',
    },
    accountProfile: {
      title: 'Your profile and password',
      summary: 'Account: name, photo, password and language.',
      body:
        'Open Account from the menu to change your first and last name and your profile photo, and to change your password (you need the current one).\n\n' +
        'Forgot your password? On the sign-in page choose Forgot password: we e-mail you a link to set a new one. The console’s language (English or French) and theme (light or dark) are in the user menu at the top right.',
      keywords: 'account profile name photo avatar password change reset forgot language theme dark light',
    },
    accountCompanies: {
      title: 'Switch or create a company',
      summary: 'The company picker at the top switches between your companies.',
      body:
        'If you belong to several companies, pick one in the company picker at the top: the console then shows that company’s channels, conversations and settings. Each company is separate; nothing is shared between them.\n\n' +
        'Choose Create Company in the picker to start a new one: you are its admin. Its plan is shown under its name ("Free plan" by default).',
      keywords: 'company companies switch select create picker tenant organisation workspace',
    },
  },
};

type Articles = typeof en;

const fr: Articles = {
  areas: {
    inbox: 'Boîte de réception',
    channels: 'Canaux',
    templates: 'Modèles',
    broadcasts: 'Diffusions',
    bots: 'Bots',
    flows: 'Parcours',
    team: 'Équipe et permissions',
    billing: 'Facturation',
    account: 'Compte',
  },
  articles: {
    inboxReply: {
      title: 'Répondre à un client',
      summary: 'Ouvrez une conversation dans Discussions, écrivez, joignez un fichier ou insérez une réponse enregistrée.',
      body:
        'Chaque message que vos clients envoient sur un canal connecté arrive dans Discussions. Les conversations non lues affichent un compteur ; l’activité la plus récente est en haut.\n\n' +
        '- Ouvrez une conversation dans la liste et lisez son historique ; les messages plus anciens se chargent quand vous remontez.\n' +
        '- Écrivez dans la zone de saisie en bas et appuyez sur Entrée pour envoyer (Maj+Entrée pour aller à la ligne).\n' +
        '- Joignez une image, une vidéo, un son ou un document avec le trombone.\n' +
        '- Tapez / pour choisir une de vos réponses enregistrées, ou gérez-les avec le bouton Réponses enregistrées.\n\n' +
        'Sur WhatsApp, vous pouvez répondre librement pendant 24 heures après le dernier message du client. Ensuite, la zone de saisie vous propose d’envoyer un modèle approuvé.',
      keywords: 'discussion message répondre envoyer réponse pièce jointe fichier réponses enregistrées réponse rapide non lu conversation',
    },
    inboxOrganise: {
      title: 'Étiqueter, attribuer et retrouver les conversations',
      summary: 'Les étiquettes classent les conversations ; une étiquette qui est l’e-mail d’un collègue la lui attribue.',
      body:
        'Ajoutez des étiquettes à une conversation depuis son en-tête : utilisez-les pour les sujets (commande, remboursement, VIP) et filtrez la liste par étiquette.\n\n' +
        'Une étiquette écrite comme une adresse e-mail (par exemple anna@votreentreprise.com) est une attribution : la conversation est attribuée à ce membre de l’équipe. Dans les entreprises où les agents ne voient que leurs conversations, un agent voit celles étiquetées avec son e-mail.\n\n' +
        'La recherche trouve un contact par son nom ou son numéro / identifiant externe ; combinez-la avec les filtres d’étiquettes et de canaux. Bloquez un client qui abuse du service : il ne peut plus vous écrire jusqu’à ce que vous le débloquiez.',
      keywords: 'étiquette étiquettes tag attribuer attribution agent filtre recherche contact bloquer débloquer trouver',
    },
    inboxPauseBot: {
      title: 'Prendre le relais du bot',
      summary: 'Mettez le bot en pause pour un client pendant que vous lui parlez vous-même.',
      body:
        'Quand un bot tourne sur un canal, il répond automatiquement aux nouveaux messages. Pour parler vous-même à un client, mettez le bot en pause pour cette conversation : il se tait un jour par défaut, ou le nombre de jours choisi.\n\n' +
        'Une nouvelle pause relance le bot aussitôt. Une conversation en pause indique quand la pause se termine. Les bots peuvent aussi passer la main à votre équipe avec une étape de transfert ; la conversation apparaît alors non attribuée dans Discussions.',
      keywords: 'pause bot reprendre transfert passer la main humain agent relais arrêter bot',
    },
    channelsWhatsapp: {
      title: 'Connecter un numéro WhatsApp',
      summary: 'Canaux → Connecter WhatsApp lance l’inscription intégrée de Meta.',
      body:
        'WhatsApp se connecte par l’inscription intégrée de Meta : vous vous connectez avec Facebook, choisissez ou créez un compte WhatsApp Business et vérifiez votre numéro.\n\n' +
        '- Ouvrez Canaux et choisissez Connecter WhatsApp.\n' +
        '- Suivez la fenêtre de Meta jusqu’au bout ; ne la fermez pas avant qu’elle indique que c’est terminé.\n' +
        '- De retour dans la console, le numéro apparaît connecté une fois l’inscription terminée.\n\n' +
        'Si l’inscription n’aboutit qu’en partie, le numéro fonctionne quand même et la page du canal indique ce qu’il reste à faire. Surveillez la note de qualité et la limite d’envoi affichées sur le canal : elles limitent le nombre de clients que vous pouvez contacter en premier chaque jour.',
      keywords: 'whatsapp connecter numéro téléphone inscription intégrée meta facebook compte business waba vérifier qualité limite',
    },
    channelsPages: {
      title: 'Connecter une page Facebook ou un compte Instagram',
      summary: 'Les messages Messenger et Instagram arrivent par votre page Facebook.',
      body:
        'Choisissez Connecter une page Facebook ou Connecter un compte Instagram sur la page Canaux, connectez-vous avec Facebook et choisissez les pages à connecter. Un compte Instagram professionnel doit être lié à l’une de vos pages Facebook.\n\n' +
        'Une fois connectés, les messages à la page et au compte Instagram arrivent dans Discussions, et les bots peuvent y répondre. Déconnectez un canal depuis son menu sur la page Canaux ; ses conversations restent dans votre historique.',
      keywords: 'page facebook messenger instagram connecter réseau social déconnecter canal',
    },
    channelsWindow: {
      title: 'La fenêtre de 24 heures',
      summary: 'Messages libres seulement dans les 24 heures suivant le dernier message du client.',
      body:
        'Les messageries ne permettent à une entreprise d’envoyer des messages libres que dans les 24 heures qui suivent le dernier message du client. La zone de saisie affiche le temps restant.\n\n' +
        'Hors de cette fenêtre, sur WhatsApp, envoyez un modèle approuvé (la zone de saisie vous les propose) ; la réponse du client ouvre une nouvelle fenêtre. C’est pourquoi les diffusions utilisent toujours des modèles.',
      keywords: '24 heures fenêtre session expirée modèle hors message libre',
    },
    templatesCreate: {
      title: 'Créer un modèle WhatsApp',
      summary: 'Modèles → Créer : catégorie, langue, en-tête, corps avec variables, boutons.',
      body:
        'Les modèles sont les messages que WhatsApp vous laisse envoyer en premier, et les seuls qu’une diffusion peut envoyer.\n\n' +
        '- Ouvrez Modèles et choisissez Créer, puis la catégorie : marketing, utilitaire ou authentification.\n' +
        '- Donnez un nom en minuscules avec des tirets bas, choisissez la langue.\n' +
        '- Écrivez le corps ; les variables s’écrivent {{1}}, {{2}}… avec un exemple pour chacune.\n' +
        '- Ajoutez si besoin un en-tête (texte, image, vidéo ou document), un pied de page et des boutons (réponses rapides, lien, numéro de téléphone).\n\n' +
        'Un modèle carrousel présente jusqu’à dix cartes, chacune avec son média et ses boutons : choisissez Créer un carrousel.',
      keywords: 'modèle créer whatsapp catégorie marketing utilitaire authentification variables en-tête pied de page boutons carrousel cartes langue',
    },
    templatesReview: {
      title: 'Validation et statut des modèles',
      summary: 'Meta examine chaque nouveau modèle : en attente, approuvé ou refusé.',
      body:
        'Un modèle nouveau ou modifié est envoyé à Meta pour validation et apparaît en attente. La plupart des validations prennent quelques minutes, certaines jusqu’à un jour. Un modèle approuvé s’utilise aussitôt ; un modèle refusé affiche la raison donnée par Meta : modifiez le texte et soumettez-le de nouveau.\n\n' +
        'Meta note aussi la qualité des modèles. Un modèle en pause ou désactivé ne peut pas être envoyé ; la page du modèle indique pourquoi et l’historique de ses statuts.',
      keywords: 'validation approuvé refusé en attente statut qualité pause désactivé raison meta',
    },
    broadcastsSend: {
      title: 'Envoyer une diffusion',
      summary: 'Diffusion → Nouvelle diffusion : un canal, un modèle approuvé, les destinataires, maintenant ou plus tard.',
      body:
        '- Ouvrez Diffusion et choisissez Nouvelle diffusion, puis le type.\n' +
        '- Choisissez le canal et un modèle approuvé, et remplissez ses variables (le même texte pour tous, ou une colonne de votre fichier par destinataire).\n' +
        '- Choisissez les destinataires : importez un CSV de numéros ou sélectionnez des contacts.\n' +
        '- Envoyez maintenant ou programmez une date et une heure.\n\n' +
        'La liste des diffusions montre l’avancement de chacune ; son rapport compte les messages envoyés, remis, lus et en échec, et se télécharge.',
      keywords: 'diffusion campagne envoyer masse message programmer destinataires csv rapport remis lus échec',
    },
    broadcastsOptOut: {
      title: 'Désinscriptions',
      summary: 'Les clients qui écrivent STOP ne reçoivent plus jamais de diffusion.',
      body:
        'Un client qui répond STOP (ou l’un de vos mots-clés de désinscription), ou qui refuse les messages marketing dans WhatsApp, est ajouté à la liste des désinscrits ; les diffusions l’ignorent automatiquement. Un bot peut aussi enregistrer une désinscription avec son action de désinscription.\n\n' +
        'Les administrateurs peuvent télécharger la liste en CSV dans la section Téléchargements de cette page.',
      keywords: 'désinscription désinscrire stop se désabonner consentement liste csv marketing opt-out',
    },
    botsBuild: {
      title: 'Construire un bot',
      summary: 'Bots → Créer un bot, puis dessinez ses étapes et ses boutons sur le canevas.',
      body:
        'Un bot est un ensemble d’étapes. Chaque étape envoie un ou plusieurs messages (texte ou média) et peut proposer des boutons ; chaque bouton mène à une autre étape.\n\n' +
        '- Ouvrez Bots et choisissez Créer un bot : son canevas s’ouvre.\n' +
        '- Sélectionnez une étape pour modifier ses messages, ses boutons (un nouveau bouton s’appelle « Button ») et l’étape suivante.\n' +
        '- Ajoutez des actions à une étape : étiqueter le client, passer la main à un agent, enregistrer une désinscription, appeler une opération.\n' +
        '- Essayez-le dans la discussion de test avant d’attribuer le bot à un canal.\n\n' +
        'Un seul bot répond sur un canal. Mettez-le en pause pour un client depuis Discussions.',
      keywords: 'bot chatbot créer canevas étape étapes bouton option étape suivante message actions discussion de test attribuer canal',
    },
    botsOperations: {
      title: 'Appeler vos systèmes depuis un bot (opérations)',
      summary: 'Une opération est un appel HTTP dont la réponse remplit les variables du bot.',
      body:
        'Les opérations permettent à un bot de consulter une commande, une réservation ou un client dans votre propre système. Une opération a une méthode, une URL, des en-têtes et un corps avec des variables, et une correspondance de réponse qui copie des champs de la réponse dans des variables utilisables par les messages suivants.\n\n' +
        'Générez-en une à partir d’un exemple de requête et de réponse, puis appelez-la depuis les actions d’une étape. Les appels expirent après quelques secondes et ne peuvent pas joindre d’adresses privées.',
      keywords: 'opération http api appel webhook intégration variables correspondance réponse consultation',
    },
    flowsCreate: {
      title: 'Créer un parcours',
      summary: 'Une conversation guidée : un message d’introduction, des étapes ordonnées, un appel à l’action.',
      body:
        'Un parcours guide un client dans une conversation que vous écrivez une fois : un message d’introduction (avec un média si besoin), des étapes ordonnées avec des options, et un appel à l’action à la fin.\n\n' +
        '- Ouvrez Parcours et choisissez Créer ; donnez au parcours un nom, une description, le nom et le domaine de votre entreprise (128 caractères au plus chacun).\n' +
        '- Modifiez le parcours pour écrire l’introduction (512 caractères au plus), les étapes et l’appel à l’action (20 caractères au plus).\n' +
        '- Enregistrez : les versions précédentes sont conservées et peuvent être restaurées.',
      keywords: 'parcours flow créer conversation guidée introduction message étapes options appel à l’action version restaurer',
    },
    flowsStart: {
      title: 'Comment les clients démarrent un parcours',
      summary: 'Par un mot-clé, ou comme parcours par défaut d’un canal pour les nouvelles conversations.',
      body:
        'Un client démarre un parcours en écrivant l’un de ses mots-clés (le parcours de visite de la démo démarre avec « tour »). Un canal peut aussi avoir un parcours par défaut qui accueille chaque nouvelle conversation quand aucun mot-clé ne correspond.\n\n' +
        'L’éditeur de parcours indique, pour chaque étape, combien de clients l’ont atteinte et où ils se sont arrêtés, pour vous aider à raccourcir les étapes abandonnées.',
      keywords: 'démarrer parcours mot-clé déclencheur parcours par défaut canal nouvelle conversation statistiques',
    },
    teamInvite: {
      title: 'Inviter votre équipe',
      summary: 'Équipe → Inviter : une ou plusieurs adresses e-mail et un rôle.',
      body:
        '- Ouvrez Équipe et choisissez Inviter.\n' +
        '- Saisissez une ou plusieurs adresses e-mail et choisissez leur rôle.\n' +
        '- Chaque personne reçoit un e-mail avec un lien pour rejoindre ; les invitations en attente sont listées jusqu’à leur acceptation.\n\n' +
        'Changez le rôle d’un membre depuis la liste de l’équipe, ou retirez-le : il perd aussitôt l’accès à l’entreprise.',
      keywords: 'équipe inviter invitation membre ajouter retirer collègue e-mail rôle',
    },
    teamPermissions: {
      title: 'Rôles et permissions',
      summary: 'Administrateur, responsable et agent : ce que chaque rôle peut voir et gérer par domaine.',
      body:
        'Les administrateurs peuvent tout faire. Les responsables gèrent le travail quotidien mais ni la facturation ni les permissions. Les agents répondent aux conversations et peuvent consulter la plupart des pages sans les modifier.\n\n' +
        'Les administrateurs peuvent ajuster, sur la page Permissions, ce que chaque rôle peut voir et gérer dans chaque domaine (canaux, parcours, discussions, statistiques, équipe, facturation…). Un membre qui ouvre une page que son rôle ne peut pas voir lit « Vous n\'avez pas la permission d\'accéder à cette page. »',
      keywords: 'rôle rôles administrateur responsable manager agent permission permissions accès voir gérer droits',
    },
    billingPlans: {
      title: 'Offres et abonnement',
      summary: 'Tarifs présente les offres ; l’abonnement passe par un paiement sécurisé.',
      body:
        'Chaque entreprise commence avec l’offre gratuite. Les offres diffèrent par leurs limites : sièges, canaux, bots et destinataires de diffusion par mois. Quand une limite est atteinte, la console indique quelle offre la lève.\n\n' +
        '- Ouvrez Tarifs, choisissez mensuel ou annuel et une offre.\n' +
        '- Payez sur la page de paiement ; vous revenez sur Compte avec la nouvelle offre active.\n' +
        '- Pour arrêter, résiliez depuis Compte : l’offre reste active jusqu’à la fin de la période payée, et vous pouvez la reprendre d’ici là.\n\n' +
        'Seuls les membres ayant accès à la facturation voient ces pages.',
      keywords: 'offre offres tarifs abonnement souscrire passer à une offre supérieure résilier reprendre offre gratuite limites sièges paiement',
    },
    billingInvoices: {
      title: 'Factures et moyen de paiement',
      summary: 'Compte liste vos factures ; changez de carte par le portail de paiement.',
      body:
        'La page Compte liste chaque facture avec son numéro, sa date, son montant et son statut, et des liens vers son PDF et sa version en ligne.\n\n' +
        'Pour changer de carte ou de coordonnées de facturation, ouvrez le portail de paiement depuis Compte. Si un paiement échoue, l’abonnement l’indique et le prestataire réessaie ; mettez la carte à jour pour ne pas perdre l’offre.',
      keywords: 'facture factures pdf reçu paiement carte portail paiement échoué coordonnées facturation',
    },
    accountProfile: {
      title: 'Votre profil et votre mot de passe',
      summary: 'Compte : nom, photo, mot de passe et langue.',
      body:
        'Ouvrez Compte dans le menu pour changer votre prénom, votre nom et votre photo de profil, et pour changer votre mot de passe (il faut l’actuel).\n\n' +
        'Mot de passe oublié ? Sur la page de connexion, choisissez Mot de passe oublié : nous vous envoyons par e-mail un lien pour en définir un nouveau. La langue de la console (anglais ou français) et le thème (clair ou sombre) sont dans le menu utilisateur en haut à droite.',
      keywords: 'compte profil nom photo avatar mot de passe changer réinitialiser oublié langue thème sombre clair',
    },
    accountCompanies: {
      title: 'Changer d’entreprise ou en créer une',
      summary: 'Le sélecteur d’entreprise en haut passe d’une entreprise à l’autre.',
      body:
        'Si vous appartenez à plusieurs entreprises, choisissez-en une dans le sélecteur en haut : la console affiche alors les canaux, conversations et réglages de cette entreprise. Chaque entreprise est séparée ; rien n’est partagé entre elles.\n\n' +
        'Choisissez Créer l’entreprise dans le sélecteur pour en créer une : vous en êtes l’administrateur. Son offre est affichée sous son nom (« Offre gratuite » par défaut).',
      keywords: 'entreprise entreprises changer sélectionner créer sélecteur société organisation espace',
    },
  },
};

export const helpTranslations = { en, fr };
