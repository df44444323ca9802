#!/usr/bin/env python3
# Composes the "strangers" corpus (issue 44): descriptions in the styles people paste (e-mail threads with
# headers, greetings, quotes and signatures; chat logs; forms copied from paper with section headings;
# run-on prose; bullet lists), with repeated rows, choices written every way, long free text, several
# signing parties, typos and mixed languages, in en/es/fr/de/it/pt-BR/pt-PT, plus descriptions in
# languages the generator does not read. The expected fields are built from the same parts as the
# prompt, before any generator runs. Run: python3 compose.py (writes tuning.json and aside.json).
# The held-aside set uses its own seed and parts of the banks the tuning set never uses (ASIDE_ONLY).
import json, random, re

LANGS = ['en', 'es', 'fr', 'de', 'it', 'ptbr', 'ptpt']
def L(lang): return 'pt' if lang.startswith('pt') else lang

# concept: type, flags, {lang: ([surfaces], alts)}; ptbr/ptpt fall back to 'pt'.
C = {
 'name': ('text', '', {'en': (['full name', 'name', 'first and last name'], 'name'), 'es': (['nombre completo', 'nombre y apellidos'], 'nombre'), 'fr': (['nom complet', 'nom et prénom'], 'nom'), 'de': (['vollständiger Name', 'Vor- und Nachname'], 'name'), 'it': (['nome e cognome', 'nome completo'], 'nome'), 'pt': (['nome completo'], 'nome')}),
 'dob': ('date', '', {'en': (['date of birth', 'DOB', 'birth date'], 'birth|dob'), 'es': (['fecha de nacimiento'], 'nacimiento'), 'fr': (['date de naissance'], 'naissance'), 'de': (['Geburtsdatum'], 'geburt'), 'it': (['data di nascita'], 'nascita'), 'pt': (['data de nascimento'], 'nascimento')}),
 'email': ('email', '', {'en': (['email', 'e-mail address'], 'mail'), 'es': (['correo electrónico', 'email'], 'correo|mail'), 'fr': (['adresse e-mail', 'courriel'], 'mail|courriel'), 'de': (['E-Mail-Adresse', 'E-Mail'], 'mail'), 'it': (['indirizzo email', 'e-mail'], 'mail'), 'pt': (['e-mail', 'endereço de e-mail'], 'mail')}),
 'phone': ('phone', '', {'en': (['phone number', 'mobile number'], 'phone|mobile'), 'es': (['teléfono', 'móvil'], 'telefono|movil'), 'fr': (['téléphone', 'numéro de portable'], 'telephone|portable'), 'de': (['Telefonnummer', 'Handynummer'], 'telefon|handy'), 'it': (['telefono', 'cellulare'], 'telefono|cellulare'), 'ptbr': (['telefone', 'celular'], 'telefone|celular'), 'ptpt': (['telefone', 'telemóvel'], 'telefone|telemovel')}),
 'address': ('text', '~', {'en': (['home address', 'postal address'], 'address'), 'es': (['dirección', 'domicilio'], 'direccion|domicilio'), 'fr': (['adresse postale', 'adresse'], 'adresse'), 'de': (['Anschrift', 'Wohnadresse'], 'anschrift|adresse'), 'it': (['indirizzo di residenza', 'indirizzo'], 'indirizzo'), 'ptbr': (['endereço'], 'endereco'), 'ptpt': (['morada'], 'morada')}),
 'start': ('date', '', {'en': (['start date'], 'start'), 'es': (['fecha de inicio'], 'inicio'), 'fr': (['date de début'], 'debut'), 'de': (['Startdatum', 'Beginn'], 'start|beginn'), 'it': (['data di inizio'], 'inizio'), 'pt': (['data de início'], 'inicio')}),
 'end': ('date', '', {'en': (['end date'], 'end'), 'es': (['fecha de fin'], 'fin'), 'fr': (['date de fin'], 'fin'), 'de': (['Enddatum'], 'end'), 'it': (['data di fine'], 'fine'), 'ptbr': (['data de término'], 'termino'), 'ptpt': (['data de fim'], 'fim')}),
 'income': ('number', '', {'en': (['monthly income'], 'income'), 'es': (['ingresos mensuales'], 'ingresos'), 'fr': (['revenus mensuels'], 'revenu'), 'de': (['monatliches Einkommen'], 'einkommen'), 'it': (['reddito mensile'], 'reddito'), 'ptbr': (['renda mensal'], 'renda'), 'ptpt': (['rendimento mensal'], 'rendimento')}),
 'employer': ('text', '', {'en': (['employer', 'current employer'], 'employer'), 'es': (['empleador'], 'empleador'), 'fr': (['employeur'], 'employeur'), 'de': (['Arbeitgeber'], 'arbeitgeber'), 'it': (['datore di lavoro'], 'datore'), 'ptbr': (['empresa onde trabalha'], 'empresa'), 'ptpt': (['entidade patronal'], 'entidade')}),
 'amount': ('number', '', {'en': (['amount', 'total amount'], 'amount'), 'es': (['importe'], 'importe'), 'fr': (['montant'], 'montant'), 'de': (['Betrag'], 'betrag'), 'it': (['importo'], 'importo'), 'pt': (['valor'], 'valor')}),
 'idnum': ('text', '', {'en': (['passport number', 'ID number'], 'passport|id'), 'es': (['DNI', 'número de pasaporte'], 'dni|pasaporte'), 'fr': (['numéro de passeport'], 'passeport'), 'de': (['Ausweisnummer'], 'ausweis'), 'it': (['codice fiscale'], 'codice fiscale'), 'ptbr': (['CPF'], 'cpf'), 'ptpt': (['número do cartão de cidadão', 'NIF'], 'cartao de cidadao|nif')}),
 'nationality': ('text', '', {'en': (['nationality'], 'nationality'), 'es': (['nacionalidad'], 'nacionalidad'), 'fr': (['nationalité'], 'nationalite'), 'de': (['Staatsangehörigkeit'], 'staatsangehorigkeit'), 'it': (['cittadinanza'], 'cittadinanza'), 'pt': (['nacionalidade'], 'nacionalidade')}),
 'guests': ('number', '', {'en': (['number of guests'], 'guests'), 'es': (['número de invitados'], 'invitados'), 'fr': (["nombre d'invités"], 'invites'), 'de': (['Anzahl der Gäste'], 'gaste'), 'it': (['numero di ospiti'], 'ospiti'), 'pt': (['número de convidados'], 'convidados')}),
 'company': ('text', '', {'en': (['company name'], 'company'), 'es': (['nombre de la empresa'], 'empresa'), 'fr': (['nom de la société'], 'societe'), 'de': (['Firmenname'], 'firmenname|firma'), 'it': (['ragione sociale'], 'ragione sociale'), 'pt': (['nome da empresa'], 'empresa')}),
 'plate': ('text', '', {'en': (['licence plate', 'vehicle registration'], 'plate|registration'), 'es': (['matrícula'], 'matricula'), 'fr': (["plaque d'immatriculation"], 'immatriculation'), 'de': (['Kennzeichen'], 'kennzeichen'), 'it': (['targa'], 'targa'), 'ptbr': (['placa do veículo'], 'placa'), 'ptpt': (['matrícula'], 'matricula')}),
 'job': ('text', '', {'en': (['job title'], 'job title'), 'es': (['puesto'], 'puesto'), 'fr': (['poste occupé'], 'poste'), 'de': (['Berufsbezeichnung'], 'beruf'), 'it': (['mansione'], 'mansione'), 'pt': (['cargo'], 'cargo')}),
 'city': ('text', '', {'en': (['city'], 'city'), 'es': (['ciudad'], 'ciudad'), 'fr': (['ville'], 'ville'), 'de': (['Wohnort'], 'wohnort'), 'it': (['città'], 'citta'), 'pt': (['cidade'], 'cidade')}),
 'rent': ('number', '', {'en': (['monthly rent'], 'rent'), 'es': (['renta mensual'], 'renta'), 'fr': (['loyer mensuel'], 'loyer'), 'de': (['Monatsmiete'], 'miete'), 'it': (['canone mensile'], 'canone'), 'ptbr': (['valor do aluguel'], 'aluguel'), 'ptpt': (['renda mensal'], 'renda')}),
 'iban': ('text', '', {'en': (['IBAN'], 'iban'), 'es': (['IBAN'], 'iban'), 'fr': (['IBAN'], 'iban'), 'de': (['IBAN'], 'iban'), 'it': (['IBAN'], 'iban'), 'pt': (['IBAN'], 'iban')}),
 'allergies': ('text', '~', {'en': (['allergies'], 'allerg'), 'es': (['alergias'], 'alergia'), 'fr': (['allergies'], 'allergie'), 'de': (['Allergien'], 'allergie'), 'it': (['allergie'], 'allergie'), 'pt': (['alergias'], 'alergia')}),
 'incident': ('text', '~', {'en': (['a description of what happened', 'describe the incident in detail'], 'happened|incident|descri'), 'es': (['descripción de lo ocurrido', 'describa el incidente con detalle'], 'ocurrido|incidente|descri'), 'fr': (["description de l'incident", "décrivez ce qui s'est passé"], 'incident|descri|passe'), 'de': (['Beschreibung des Vorfalls', 'Schilderung des Hergangs'], 'vorfall|hergang|beschreib|schilder'), 'it': (["descrizione dell'accaduto", "descriva l'incidente nel dettaglio"], 'accaduto|incidente|descri'), 'pt': (['descrição do ocorrido', 'descreva o incidente em detalhe'], 'ocorrido|incidente|descri')}),
 'reason': ('text', '~', {'en': (['reason for the request', 'explain why you are applying'], 'reason|why|explain'), 'es': (['motivo de la solicitud', 'explique por qué lo solicita'], 'motivo|explique|por que'), 'fr': (['motif de la demande', 'expliquez pourquoi vous postulez'], 'motif|pourquoi|expliquez'), 'de': (['Begründung', 'Grund des Antrags'], 'begrundung|grund'), 'it': (['motivo della richiesta', 'spieghi perché fa domanda'], 'motivo|perche|spieghi'), 'pt': (['motivo do pedido', 'explique porque se candidata'], 'motivo|porque|explique')}),
 'comments': ('text', '?~', {'en': (['comments', 'additional notes'], 'comment|note'), 'es': (['observaciones', 'comentarios'], 'observaciones|comentario'), 'fr': (['remarques', 'commentaires'], 'remarque|commentaire'), 'de': (['Bemerkungen', 'Anmerkungen'], 'bemerkung|anmerkung'), 'it': (['note', 'osservazioni'], 'note|osservazioni'), 'pt': (['observações', 'comentários'], 'observacoes|comentario')}),
 'experience': ('text', '~', {'en': (['previous experience (please give details)', 'details of your relevant experience'], 'experience'), 'es': (['experiencia previa (detalle)', 'detalles de su experiencia'], 'experiencia'), 'fr': (['expérience antérieure (détaillez)', 'détails de votre expérience'], 'experience'), 'de': (['bisherige Erfahrung (bitte ausführlich)', 'Einzelheiten zur Berufserfahrung'], 'erfahrung'), 'it': (['esperienza precedente (dettagli)', 'dettagli della sua esperienza'], 'esperienza'), 'pt': (['experiência anterior (detalhe)', 'detalhes da sua experiência'], 'experiencia')}),
}
# choice concepts: label surfaces, alts, options per language
CH = {
 'size': {'en': (['T-shirt size'], 'size', ['S', 'M', 'L', 'XL']), 'es': (['talla de camiseta'], 'talla', ['S', 'M', 'L', 'XL']), 'fr': (['taille de t-shirt'], 'taille', ['S', 'M', 'L', 'XL']), 'de': (['T-Shirt-Größe'], 'grosse', ['S', 'M', 'L', 'XL']), 'it': (['taglia della maglietta'], 'taglia', ['S', 'M', 'L', 'XL']), 'ptbr': (['tamanho da camiseta'], 'tamanho', ['P', 'M', 'G', 'GG']), 'ptpt': (['tamanho da t-shirt'], 'tamanho', ['S', 'M', 'L', 'XL'])},
 'shift': {'en': (['preferred shift'], 'shift', ['morning', 'afternoon', 'night']), 'es': (['turno preferido'], 'turno', ['mañana', 'tarde', 'noche']), 'fr': (['créneau préféré'], 'creneau', ['matin', 'après-midi', 'soir']), 'de': (['bevorzugte Schicht'], 'schicht', ['Frühschicht', 'Spätschicht', 'Nachtschicht']), 'it': (['turno preferito'], 'turno', ['mattina', 'pomeriggio', 'sera']), 'pt': (['turno preferido'], 'turno', ['manhã', 'tarde', 'noite'])},
 'day': {'en': (['preferred day'], 'day', ['Mon', 'Tue', 'Wed']), 'es': (['día preferido'], 'dia', ['lunes', 'martes', 'miércoles']), 'fr': (['jour souhaité'], 'jour', ['lundi', 'mardi', 'mercredi']), 'de': (['bevorzugter Termin'], 'termin', ['Montag', 'Dienstag', 'Mittwoch']), 'it': (['giorno preferito'], 'giorno', ['lunedì', 'martedì', 'mercoledì']), 'ptbr': (['dia preferido'], 'dia', ['segunda', 'terça', 'quarta']), 'ptpt': (['dia preferido'], 'dia', ['segunda', 'terça', 'quarta'])},
 'payment': {'en': (['payment method'], 'payment', ['cash', 'card', 'bank transfer']), 'es': (['forma de pago'], 'pago', ['efectivo', 'tarjeta', 'transferencia']), 'fr': (['mode de paiement'], 'paiement', ['espèces', 'carte', 'virement']), 'de': (['Zahlungsart'], 'zahlung', ['bar', 'Karte', 'Überweisung']), 'it': (['metodo di pagamento'], 'pagamento', ['contanti', 'carta', 'bonifico']), 'ptbr': (['forma de pagamento'], 'pagamento', ['dinheiro', 'cartão', 'pix']), 'ptpt': (['forma de pagamento'], 'pagamento', ['numerário', 'cartão', 'transferência'])},
 'contract': {'en': (['contract type'], 'contract', ['permanent', 'temporary', 'internship']), 'es': (['tipo de contrato'], 'contrato', ['indefinido', 'temporal', 'prácticas']), 'fr': (['type de contrat'], 'contrat', ['CDI', 'CDD', 'stage']), 'de': (['Vertragsart'], 'vertrag', ['unbefristet', 'befristet', 'Praktikum']), 'it': (['tipo di contratto'], 'contratto', ['indeterminato', 'determinato', 'stage']), 'ptbr': (['tipo de contrato'], 'contrato', ['CLT', 'PJ', 'estágio']), 'ptpt': (['tipo de contrato'], 'contrato', ['sem termo', 'a termo', 'estágio'])},
 'rating': {'en': (['overall rating'], 'rating', ['1', '2', '3', '4', '5']), 'es': (['valoración general'], 'valoracion', ['1', '2', '3', '4', '5']), 'fr': (['note globale'], 'note', ['1', '2', '3', '4', '5']), 'de': (['Gesamtbewertung'], 'bewertung', ['1', '2', '3', '4', '5']), 'it': (['valutazione complessiva'], 'valutazione', ['1', '2', '3', '4', '5']), 'pt': (['avaliação geral'], 'avaliacao', ['1', '2', '3', '4', '5'])},
 'room': {'en': (['room type'], 'room', ['single', 'double', 'twin']), 'es': (['tipo de habitación'], 'habitacion', ['individual', 'doble', 'twin']), 'fr': (['type de chambre'], 'chambre', ['simple', 'double', 'twin']), 'de': (['Zimmerart'], 'zimmer', ['Einzelzimmer', 'Doppelzimmer', 'Zweibettzimmer']), 'it': (['tipo di camera'], 'camera', ['singola', 'doppia', 'matrimoniale']), 'pt': (['tipo de quarto'], 'quarto', ['individual', 'duplo', 'twin'])},
}
YESNO = {'licence': {'en': ('driving licence', 'licence', 'Do you have a driving licence'), 'es': ('carnet de conducir', 'carnet', '¿Tiene carnet de conducir'), 'fr': ('permis de conduire', 'permis', 'Avez-vous le permis de conduire'), 'de': ('Führerschein', 'fuhrerschein', 'Haben Sie einen Führerschein'), 'it': ('patente di guida', 'patente', 'Ha la patente di guida'), 'ptbr': ('carteira de motorista', 'carteira', 'Tem carteira de motorista'), 'ptpt': ('carta de condução', 'carta', 'Tem carta de condução')},
         'smoker': {'en': ('smoker', 'smok', 'Do you smoke'), 'es': ('fumador', 'fuma', '¿Fuma'), 'fr': ('fumeur', 'fum', 'Fumez-vous'), 'de': ('Raucher', 'rauch', 'Rauchen Sie'), 'it': ('fumatore', 'fuma', 'Fuma'), 'ptbr': ('fumante', 'fuma', 'Você fuma'), 'ptpt': ('fumador', 'fuma', 'Fuma')},
         'pets': {'en': ('pets', 'pet', 'Do you have pets'), 'es': ('mascotas', 'mascota', '¿Tiene mascotas'), 'fr': ('animaux', 'animaux', 'Avez-vous des animaux'), 'de': ('Haustiere', 'haustier', 'Haben Sie Haustiere'), 'it': ('animali domestici', 'animali', 'Ha animali domestici'), 'ptbr': ('animais de estimação', 'animais', 'Tem animais de estimação'), 'ptpt': ('animais de estimação', 'animais', 'Tem animais de estimação')}}
YN = {'en': ('yes', 'no'), 'es': ('sí', 'no'), 'fr': ('oui', 'non'), 'de': ('ja', 'nein'), 'it': ('sì', 'no'), 'pt': ('sim', 'não')}
MULTI = {'diet': {'en': ('dietary requirements', ['vegetarian', 'vegan', 'gluten-free', 'halal']), 'es': ('requisitos alimentarios', ['vegetariano', 'vegano', 'sin gluten', 'halal']), 'fr': ('régime alimentaire', ['végétarien', 'végétalien', 'sans gluten', 'halal']), 'de': ('Ernährung', ['vegetarisch', 'vegan', 'glutenfrei', 'halal']), 'it': ('esigenze alimentari', ['vegetariano', 'vegano', 'senza glutine', 'halal']), 'pt': ('restrições alimentares', ['vegetariano', 'vegano', 'sem glúten', 'halal'])},
         'help': {'en': ('how you can help', ['events', 'fundraising', 'mentoring']), 'es': ('cómo puede ayudar', ['eventos', 'recaudación', 'mentoría']), 'fr': ('comment vous pouvez aider', ['événements', 'collecte', 'tutorat']), 'de': ('Mithilfe', ['Veranstaltungen', 'Spendensammlung', 'Mentoring']), 'it': ('come può aiutare', ['eventi', 'raccolta fondi', 'tutoraggio']), 'pt': ('como pode ajudar', ['eventos', 'angariação', 'mentoria'])}}
TICKALL = {'en': ['tick all that apply', 'select all that apply'], 'es': ['marque todas las que correspondan'], 'fr': ['cochez toutes les cases utiles'], 'de': ['alles Zutreffende ankreuzen', 'Mehrfachnennung möglich'], 'it': ['barrare tutte le voci pertinenti'], 'pt': ['assinale todas as opções aplicáveis']}
ONEOF = {'en': 'one of', 'es': 'una de', 'fr': "l'un de", 'de': 'eines von', 'it': 'una tra', 'pt': 'uma de'}
OR = {'en': 'or', 'es': 'o', 'fr': 'ou', 'de': 'oder', 'it': 'o', 'pt': 'ou'}
AND = {'en': 'and', 'es': 'y', 'fr': 'et', 'de': 'und', 'it': 'e', 'pt': 'e'}
# rows: plural, singular, columns [(surface, alt, type)]
ROWS = {
 'children': {'en': ('children', 'child', [('name', 'name', 'text'), ('date of birth', 'birth', 'date')]), 'es': ('hijos', 'hijo', [('nombre', 'nombre', 'text'), ('fecha de nacimiento', 'nacimiento', 'date')]), 'fr': ('enfants', 'enfant', [('nom', 'nom', 'text'), ('date de naissance', 'naissance', 'date')]), 'de': ('Kinder', 'kind', [('Name', 'name', 'text'), ('Geburtsdatum', 'geburt', 'date')]), 'it': ('figli', 'figlio', [('nome', 'nome', 'text'), ('data di nascita', 'nascita', 'date')]), 'pt': ('filhos', 'filho', [('nome', 'nome', 'text'), ('data de nascimento', 'nascimento', 'date')])},
 'items': {'en': ('items', 'item', [('description', 'description', 'text'), ('qty', 'qty|quantity', 'number'), ('price', 'price', 'number')]), 'es': ('artículos', 'articulo', [('descripción', 'descripcion', 'text'), ('cantidad', 'cantidad', 'number'), ('precio', 'precio', 'number')]), 'fr': ('articles', 'article', [('description', 'description', 'text'), ('quantité', 'quantite', 'number'), ('prix', 'prix', 'number')]), 'de': ('Positionen', 'position', [('Beschreibung', 'beschreibung', 'text'), ('Menge', 'menge', 'number'), ('Preis', 'preis', 'number')]), 'it': ('articoli', 'articolo', [('descrizione', 'descrizione', 'text'), ('quantità', 'quantita', 'number'), ('prezzo', 'prezzo', 'number')]), 'pt': ('artigos', 'artigo', [('descrição', 'descricao', 'text'), ('quantidade', 'quantidade', 'number'), ('preço', 'preco', 'number')])},
 'refs': {'en': ('references', 'reference', [('name', 'name', 'text'), ('phone', 'phone', 'phone')]), 'es': ('referencias', 'referencia', [('nombre', 'nombre', 'text'), ('teléfono', 'telefono', 'phone')]), 'fr': ('références', 'reference', [('nom', 'nom', 'text'), ('téléphone', 'telephone', 'phone')]), 'de': ('Referenzen', 'referenz', [('Name', 'name', 'text'), ('Telefon', 'telefon', 'phone')]), 'it': ('referenze', 'referenza', [('nome', 'nome', 'text'), ('telefono', 'telefono', 'phone')]), 'pt': ('referências', 'referencia', [('nome', 'nome', 'text'), ('telefone', 'telefone', 'phone')])},
 'guests': {'en': ('guests', 'guest', [('name', 'name', 'text'), ('email', 'email', 'email')]), 'es': ('acompañantes', 'acompanante', [('nombre', 'nombre', 'text'), ('email', 'email', 'email')]), 'fr': ('invités', 'invite', [('nom', 'nom', 'text'), ('e-mail', 'mail', 'email')]), 'de': ('Gäste', 'gast', [('Name', 'name', 'text'), ('E-Mail', 'mail', 'email')]), 'it': ('ospiti', 'ospite', [('nome', 'nome', 'text'), ('email', 'email', 'email')]), 'pt': ('convidados', 'convidado', [('nome', 'nome', 'text'), ('e-mail', 'mail', 'email')])},
}
ROWFMT = {'en': ['up to {n} {pl}: {cols} for each', '{Pl} 1–{n}: {cols}', 'room for {n} {pl} ({cols} each)'], 'es': ['hasta {n} {pl}: {cols} de cada uno', '{Pl} 1-{n}: {cols}'], 'fr': ["jusqu'à {n} {pl} : {cols} pour chacun", '{Pl} 1 à {n} : {cols}'], 'de': ['bis zu {n} {pl}: jeweils {cols}', '{Pl} 1–{n}: {cols}'], 'it': ['fino a {n} {pl}: {cols} per ciascuno', '{Pl} da 1 a {n}: {cols}'], 'pt': ['até {n} {pl}: {cols} de cada um', '{Pl} 1 a {n}: {cols}']}
# parties: (definite, genitive, alts)
P = {
 'en': {'tenant': ('the tenant', 'tenant', 'tenant'), 'landlord': ('the landlord', 'landlord', 'landlord'), 'guarantor': ('the guarantor', 'guarantor', 'guarantor'), 'employee': ('the employee', 'employee', 'employee'), 'manager': ('the manager', 'manager', 'manager'), 'parent': ('a parent or guardian', 'parent/guardian', 'parent|guardian'), 'witness': ('a witness', 'witness', 'witness'), 'applicant': ('the applicant', 'applicant', 'applicant'), 'client': ('the client', 'client', 'client'), 'contractor': ('the contractor', 'contractor', 'contractor'), 'buyer': ('the buyer', 'buyer', 'buyer'), 'seller': ('the seller', 'seller', 'seller'), 'coach': ('the coach', 'coach', 'coach')},
 'es': {'tenant': ('el inquilino', 'del inquilino', 'inquilino'), 'landlord': ('el arrendador', 'del arrendador', 'arrendador'), 'guarantor': ('el avalista', 'del avalista', 'avalista'), 'employee': ('el trabajador', 'del trabajador', 'trabajador'), 'manager': ('el responsable', 'del responsable', 'responsable'), 'parent': ('el padre, madre o tutor', 'del padre, madre o tutor', 'padre|madre|tutor'), 'witness': ('un testigo', 'del testigo', 'testigo'), 'applicant': ('el solicitante', 'del solicitante', 'solicitante'), 'client': ('el cliente', 'del cliente', 'cliente'), 'contractor': ('el proveedor', 'del proveedor', 'proveedor'), 'buyer': ('el comprador', 'del comprador', 'comprador'), 'seller': ('el vendedor', 'del vendedor', 'vendedor'), 'coach': ('el entrenador', 'del entrenador', 'entrenador')},
 'fr': {'tenant': ('le locataire', 'du locataire', 'locataire'), 'landlord': ('le bailleur', 'du bailleur', 'bailleur'), 'guarantor': ('le garant', 'du garant', 'garant'), 'employee': ('le salarié', 'du salarié', 'salarie'), 'manager': ('le responsable', 'du responsable', 'responsable'), 'parent': ('un parent ou tuteur', 'du parent ou tuteur', 'parent|tuteur'), 'witness': ('un témoin', 'du témoin', 'temoin'), 'applicant': ('le candidat', 'du candidat', 'candidat'), 'client': ('le client', 'du client', 'client'), 'contractor': ('le prestataire', 'du prestataire', 'prestataire'), 'buyer': ("l'acheteur", "de l'acheteur", 'acheteur'), 'seller': ('le vendeur', 'du vendeur', 'vendeur'), 'coach': ("l'entraîneur", "de l'entraîneur", 'entraineur')},
 'de': {'tenant': ('der Mieter', 'des Mieters', 'mieter'), 'landlord': ('der Vermieter', 'des Vermieters', 'vermieter'), 'guarantor': ('der Bürge', 'des Bürgen', 'burge'), 'employee': ('der Mitarbeiter', 'des Mitarbeiters', 'mitarbeiter'), 'manager': ('die Führungskraft', 'der Führungskraft', 'fuhrungskraft|vorgesetzt'), 'parent': ('ein Erziehungsberechtigter', 'des Erziehungsberechtigten', 'erziehungsberechtigt|eltern'), 'witness': ('ein Zeuge', 'des Zeugen', 'zeuge'), 'applicant': ('der Antragsteller', 'des Antragstellers', 'antragsteller'), 'client': ('der Kunde', 'des Kunden', 'kunde'), 'contractor': ('der Auftragnehmer', 'des Auftragnehmers', 'auftragnehmer'), 'buyer': ('der Käufer', 'des Käufers', 'kaufer'), 'seller': ('der Verkäufer', 'des Verkäufers', 'verkaufer'), 'coach': ('der Trainer', 'des Trainers', 'trainer')},
 'it': {'tenant': ("l'inquilino", "dell'inquilino", 'inquilino|conduttore'), 'landlord': ('il locatore', 'del locatore', 'locatore|proprietario'), 'guarantor': ('il garante', 'del garante', 'garante'), 'employee': ('il dipendente', 'del dipendente', 'dipendente'), 'manager': ('il responsabile', 'del responsabile', 'responsabile'), 'parent': ('un genitore o tutore', 'del genitore o tutore', 'genitore|tutore'), 'witness': ('un testimone', 'del testimone', 'testimone'), 'applicant': ('il richiedente', 'del richiedente', 'richiedente'), 'client': ('il cliente', 'del cliente', 'cliente'), 'contractor': ('il fornitore', 'del fornitore', 'fornitore'), 'buyer': ("l'acquirente", "dell'acquirente", 'acquirente'), 'seller': ('il venditore', 'del venditore', 'venditore'), 'coach': ("l'allenatore", "dell'allenatore", 'allenatore')},
 'ptbr': {'tenant': ('o inquilino', 'do inquilino', 'inquilino|locatario'), 'landlord': ('o locador', 'do locador', 'locador|proprietario'), 'guarantor': ('o fiador', 'do fiador', 'fiador'), 'employee': ('o funcionário', 'do funcionário', 'funcionario|colaborador'), 'manager': ('o gestor', 'do gestor', 'gestor'), 'parent': ('o responsável legal', 'do responsável legal', 'responsavel'), 'witness': ('uma testemunha', 'da testemunha', 'testemunha'), 'applicant': ('o solicitante', 'do solicitante', 'solicitante'), 'client': ('o cliente', 'do cliente', 'cliente'), 'contractor': ('o prestador', 'do prestador', 'prestador'), 'buyer': ('o comprador', 'do comprador', 'comprador'), 'seller': ('o vendedor', 'do vendedor', 'vendedor'), 'coach': ('o treinador', 'do treinador', 'treinador')},
 'ptpt': {'tenant': ('o arrendatário', 'do arrendatário', 'arrendatario|inquilino'), 'landlord': ('o senhorio', 'do senhorio', 'senhorio'), 'guarantor': ('o fiador', 'do fiador', 'fiador'), 'employee': ('o trabalhador', 'do trabalhador', 'trabalhador'), 'manager': ('a chefia', 'da chefia', 'chefia'), 'parent': ('o encarregado de educação', 'do encarregado de educação', 'encarregado'), 'witness': ('uma testemunha', 'da testemunha', 'testemunha'), 'applicant': ('o requerente', 'do requerente', 'requerente'), 'client': ('o cliente', 'do cliente', 'cliente'), 'contractor': ('o prestador', 'do prestador', 'prestador'), 'buyer': ('o comprador', 'do comprador', 'comprador'), 'seller': ('o vendedor', 'do vendedor', 'vendedor'), 'coach': ('o treinador', 'do treinador', 'treinador')},
}
PAIRS = [['tenant', 'landlord'], ['tenant', 'landlord', 'guarantor'], ['employee', 'manager'], ['applicant'], ['client', 'contractor'], ['buyer', 'seller'], ['applicant', 'witness'], ['employee'], ['client'], ['applicant', 'parent'], ['coach', 'parent'], ['buyer', 'seller', 'witness']]
DATEW = {'en': 'date', 'es': 'fecha', 'fr': 'date', 'de': 'datum', 'it': 'data', 'pt': 'data'}
SIGNW = {'en': 'Signature', 'es': 'Firma', 'fr': 'Signature', 'de': 'Unterschrift', 'it': 'Firma', 'pt': 'Assinatura'}

def sign_prose(lang, roles, dated, r):
    d = [P[lang][x][0] for x in roles]
    l = L(lang)
    def join(xs):
        return xs[0] if len(xs) == 1 else ', '.join(xs[:-1]) + f' {AND[l]} ' + xs[-1]
    if l == 'en':
        opts = [f'{join(d).capitalize()} sign{"s" if len(d) == 1 else ""}{" and date" if dated else ""} at the end.', f'It has to be signed by {join(d)}{", with the date" if dated else ""}.',
                f'{d[0].capitalize()} signs' + (f' and {" and ".join(d[1:])} countersign{"s" if len(d) == 2 else ""}' if len(d) > 1 else '') + ('; everyone dates it' if dated else '') + '.']
    elif l == 'es':
        opts = [f'Firman {join(d)}{" con la fecha" if dated else ""}.', f'Lo tienen que firmar {join(d)}{" y poner la fecha" if dated else ""}.']
        if len(d) == 1: opts = [f'Firma {d[0]}{" con la fecha" if dated else ""}.', f'Al final firma {d[0]}{" y pone la fecha" if dated else ""}.']
    elif l == 'fr':
        opts = [f'{join(d).capitalize()} signe{"nt" if len(d) > 1 else ""}{" et date" + ("nt" if len(d) > 1 else "") if dated else ""}.', f'À signer par {join(d)}{", avec la date" if dated else ""}.']
    elif l == 'de':
        opts = [f'{join(d)[0].upper() + join(d)[1:]} unterschreib{"en" if len(d) > 1 else "t"}{" mit Datum" if dated else ""}.', f'Unterschrieben wird von {join([x.replace("der ", "dem ").replace("die ", "der ").replace("ein ", "einem ") for x in d])}{" mit Datum" if dated else ""}.']
    elif l == 'it':
        opts = [f'Firma{"no" if len(d) > 1 else ""} {join(d)}{" con la data" if dated else ""}.', f'Alla fine firma{"no" if len(d) > 1 else ""} {join(d)}{", con data" if dated else ""}.']
    else:
        opts = [f'Assina{"m" if len(d) > 1 else ""} {join(d)}{" com a data" if dated else ""}.', f'No fim assina{"m" if len(d) > 1 else ""} {join(d)}{" e data" + ("m" if len(d) > 1 else "") if dated else ""}.']
    return r.choice(opts)

def sign_lines(lang, roles, dated):
    l = L(lang)
    out = []
    for x in roles:
        g = P[lang][x][1]
        lab = {'en': f'Signature of {g}', 'es': f'Firma {g}', 'fr': f'Signature {g}', 'de': f'Unterschrift {g}', 'it': f'Firma {g}', 'pt': f'Assinatura {g}'}[l]
        out.append(f'{lab}: ____________' + (f'   {DATEW[l].capitalize()}: ___/___/____' if dated else ''))
    return out

def fsurf(r, lang, key):
    t, flags, tab = C[key]
    s, alts = tab.get(lang) or tab[L(lang)]
    req = '?' not in flags
    spec = f'{alts}:{t}' + ('' if req else '?') + ('~' if '~' in flags else '')
    return r.choice(s), spec

def choice(r, lang, key, style):
    tab = CH[key]
    s, alts, opts = tab.get(lang) or tab[L(lang)]
    l = L(lang)
    lab = r.choice(s)
    n = len(opts)
    t = 'radio' if n <= 4 else 'select'
    spec = f'{alts}:{t}=' + '/'.join(o.lower() for o in opts)
    join = lambda xs: ', '.join(xs[:-1]) + f' {OR[l]} ' + xs[-1]
    text = {'paren': f'{lab} ({join(opts)})', 'pipe': f'{lab}: ' + ' | '.join(opts), 'box': f'{lab}: ' + ' '.join(f'[ ] {o}' for o in opts), 'ballot': f'{lab} ' + ' '.join(f'☐ {o}' for o in opts),
            'slash': f'{lab} ' + ' / '.join(opts), 'oneof': f'{lab}, {ONEOF[l]}: {join(opts)}', 'prose': f'{lab} ({join(opts)})' if l != 'en' else f'{lab} - {join(opts)}', 'bare': f'{lab}: {"/".join(opts)}'}[style]
    return text, spec

def yesno(r, lang, key, style):
    lab, alts, q = YESNO[key].get(lang) or YESNO[key][L(lang)]
    y, n = YN[L(lang)]
    spec = f'{alts}:radio={y}/{n}'
    text = {'q': f'{q}?', 'box': f'{lab[0].upper() + lab[1:]}: [ ] {y} [ ] {n}', 'ballot': f'{lab[0].upper() + lab[1:]} ☐ {y.capitalize()} ☐ {n.capitalize()}', 'paren': f'{lab} ({y}/{n})', 'pipe': f'{lab}: {y} | {n}'}[style]
    return text, spec

def multi(r, lang, key):
    lab, opts = MULTI[key][L(lang)]
    tick = r.choice(TICKALL[L(lang)])
    text = r.choice([f'{lab} ({tick}): ' + ', '.join(opts), f'{lab[0].upper() + lab[1:]} – {tick}: ' + ' '.join(f'☐ {o}' for o in opts), f'{lab} — {tick}: ' + ' / '.join(opts)])
    return text, [f'{o.lower()}:checkbox?' for o in opts]

def rows(r, lang, key):
    l = L(lang)
    pl, sg, cols = ROWS[key][l]
    n = r.choice([2, 3, 3, 4])
    fmt = r.choice(ROWFMT[l])
    colsurf = [c[0] for c in cols]
    cs = ', '.join(colsurf[:-1]) + f' {AND[l]} ' + colsurf[-1]
    text = fmt.format(n=n, pl=pl, Pl=pl[0].upper() + pl[1:], cols=cs)
    specs = []
    for i in range(1, n + 1):
        for s, a, t in cols:
            # the column as written is an alternative too ("child 1 date of birth")
            specs.append('|'.join(f'{w} {i} {x}' for w in (sg, pl.lower()) for x in a.split('|') + [s.lower()]) + f':{t}?')
    return text, specs

FRAME = {
 'en': dict(greet=['Hi Sam,', 'Hello team,', 'Dear Ms Patel,', 'Hey all'], ask=['Could you set up a form for this?', 'We need a form for the following.', 'Can you make the sign-up form? Details below.', 'Please put together the form below.'], off=['Thanks,', 'Kind regards,', 'Cheers', 'Best,'],
            hdr='From: {a} <{m}>\nSent: Tuesday, 3 March 2026 09:14\nTo: {b}\nCc: office@example.org\nSubject: {s}', quote='On Mon, 2 Mar 2026 at 17:05, {b} <{mb}> wrote:', q=['> Sure, send me what you need and I will set it up.', '> Thanks, talk tomorrow.', '> Let me know if anything changes.'], ack=['ok', 'sure thing', 'thanks!', '👍 will do']),
 'es': dict(greet=['Hola Marta,', 'Buenos días,', 'Estimado Sr. García:', 'Hola equipo'], ask=['¿Nos puedes preparar un formulario?', 'Necesitamos un formulario con lo siguiente.', '¿Podrías montar la ficha? Os paso los datos.'], off=['Gracias,', 'Un saludo,', 'Saludos cordiales,', 'Atentamente,'],
            hdr='De: {a} <{m}>\nEnviado el: martes, 3 de marzo de 2026 9:14\nPara: {b}\nAsunto: {s}', quote='El lun, 2 mar 2026 a las 17:05, {b} (<{mb}>) escribió:', q=['> Claro, mándame lo que necesites y lo preparo.', '> Gracias, hablamos mañana.'], ack=['vale', 'ok, perfecto', 'gracias!']),
 'fr': dict(greet=['Bonjour Claire,', 'Bonjour à tous,', 'Madame, Monsieur,', 'Salut Paul'], ask=['Pourriez-vous préparer un formulaire ?', 'Il nous faudrait un formulaire avec ce qui suit.', 'Tu peux nous faire la fiche ? Voici les infos.'], off=['Merci,', 'Cordialement,', 'Bien à vous,', 'Bonne journée,'],
            hdr='De : {a} <{m}>\nEnvoyé : mardi 3 mars 2026 09:14\nÀ : {b}\nObjet : {s}', quote='Le lun. 2 mars 2026 à 17:05, {b} <{mb}> a écrit :', q=['> Bien sûr, envoie-moi ce dont tu as besoin.', '> Merci, on en parle demain.'], ack=["d'accord", 'ok merci', 'parfait']),
 'de': dict(greet=['Hallo Jonas,', 'Liebe Kolleginnen und Kollegen,', 'Sehr geehrte Frau Weber,', 'Moin zusammen'], ask=['Kannst du bitte ein Formular dafür anlegen?', 'Wir brauchen ein Formular mit folgenden Angaben.', 'Könnten Sie das Formular erstellen? Details unten.'], off=['Danke,', 'Viele Grüße,', 'Mit freundlichen Grüßen', 'LG'],
            hdr='Von: {a} <{m}>\nGesendet: Dienstag, 3. März 2026 09:14\nAn: {b}\nBetreff: {s}', quote='Am Mo., 2. März 2026 um 17:05 schrieb {b} <{mb}>:', q=['> Klar, schick mir einfach, was du brauchst.', '> Danke, wir sprechen morgen.'], ack=['ok', 'alles klar', 'passt, danke']),
 'it': dict(greet=['Ciao Giulia,', 'Buongiorno a tutti,', 'Gentile dott. Rossi,', 'Ciao ragazzi'], ask=['Potresti preparare un modulo?', 'Ci serve un modulo con quanto segue.', 'Mi prepari la scheda? Ecco i dati.'], off=['Grazie,', 'Cordiali saluti,', 'Un saluto,', 'A presto,'],
            hdr='Da: {a} <{m}>\nInviato: martedì 3 marzo 2026 09:14\nA: {b}\nOggetto: {s}', quote='Il giorno lun 2 mar 2026 alle ore 17:05 {b} <{mb}> ha scritto:', q=['> Certo, mandami quello che ti serve.', '> Grazie, ci sentiamo domani.'], ack=['ok', 'va bene', 'perfetto grazie']),
 'ptbr': dict(greet=['Oi Ana,', 'Bom dia, pessoal,', 'Prezado Sr. Souza,', 'Olá'], ask=['Você pode montar um formulário?', 'Precisamos de um formulário com o seguinte.', 'Consegue fazer a ficha? Seguem os dados.'], off=['Obrigado,', 'Abraços,', 'Atenciosamente,', 'Valeu!'],
              hdr='De: {a} <{m}>\nEnviada em: terça-feira, 3 de março de 2026 09:14\nPara: {b}\nAssunto: {s}', quote='Em seg., 2 de mar. de 2026 às 17:05, {b} <{mb}> escreveu:', q=['> Claro, me manda o que precisar.', '> Obrigado, falamos amanhã.'], ack=['blz', 'beleza, obrigado', 'combinado']),
 'ptpt': dict(greet=['Olá Joana,', 'Bom dia a todos,', 'Exmo. Senhor,', 'Caro Rui'], ask=['Consegues preparar um formulário?', 'Precisamos de um formulário com o seguinte.', 'Podes fazer a ficha? Seguem os dados.'], off=['Obrigado,', 'Cumprimentos,', 'Com os melhores cumprimentos,', 'Abraço,'],
              hdr='De: {a} <{m}>\nEnviado: terça-feira, 3 de março de 2026 09:14\nPara: {b}\nAssunto: {s}', quote='A seg., 2/03/2026, 17:05, {b} <{mb}> escreveu:', q=['> Claro, envia-me o que precisares.', '> Obrigado, falamos amanhã.'], ack=['ok', 'combinado', 'obrigado!']),
}
TITLES = {'en': ['Tenancy application', 'Volunteer sign-up', 'New starter form', 'Incident report', 'Order form', 'Membership application'], 'es': ['Solicitud de alquiler', 'Inscripción de voluntarios', 'Ficha de alta', 'Parte de incidencias', 'Hoja de pedido'], 'fr': ['Dossier de location', 'Inscription bénévoles', "Fiche d'embauche", "Rapport d'incident", 'Bon de commande'], 'de': ['Mietbewerbung', 'Anmeldung Ehrenamt', 'Personalbogen', 'Unfallmeldung', 'Bestellformular'], 'it': ['Domanda di locazione', 'Iscrizione volontari', 'Scheda nuovo assunto', 'Segnalazione incidente', "Modulo d'ordine"], 'ptbr': ['Ficha de locação', 'Inscrição de voluntários', 'Ficha de admissão', 'Relatório de incidente', 'Pedido de compra'], 'ptpt': ['Pedido de arrendamento', 'Inscrição de voluntários', 'Ficha de admissão', 'Participação de incidente', 'Nota de encomenda']}
HEADINGS = {'en': ['Section A — Personal details', 'Section B — Employment', 'PART 2: ADDITIONAL INFORMATION', '3. Declaration'], 'es': ['PARTE 1 - DATOS PERSONALES', 'PARTE 2 - DATOS LABORALES', 'Sección C: otros datos', '4. Declaración'], 'fr': ['PARTIE A – IDENTITÉ', 'Partie B – Situation professionnelle', 'SECTION 3 : INFORMATIONS COMPLÉMENTAIRES', '4. Engagement'], 'de': ['Abschnitt A – Persönliche Angaben', 'ABSCHNITT B: BESCHÄFTIGUNG', 'Teil 3 – Weitere Angaben', '4. Erklärung'], 'it': ['SEZIONE A - DATI ANAGRAFICI', 'Sezione B – Dati lavorativi', 'PARTE 3: ALTRE INFORMAZIONI', '4. Dichiarazione'], 'ptbr': ['SEÇÃO A – DADOS PESSOAIS', 'Seção B – Dados profissionais', 'PARTE 3: INFORMAÇÕES ADICIONAIS', '4. Declaração'], 'ptpt': ['SECÇÃO A – DADOS PESSOAIS', 'Secção B – Situação profissional', 'PARTE 3: INFORMAÇÕES ADICIONAIS', '4. Declaração']}
NAMES = [('Rachel Lewis', 'rachel.lewis@example.com'), ('Tomás Ortega', 'tortega@example.es'), ('Claire Martin', 'c.martin@example.fr'), ('Jonas Becker', 'j.becker@example.de'), ('Giulia Conti', 'giulia.conti@example.it'), ('Ana Souza', 'ana.souza@example.com.br'), ('Rui Costa', 'rui.costa@example.pt')]
SIGBLOCK = ['--\n{a}\nOffice Manager | Example Ltd\nTel. +44 20 7946 0000\nwww.example.org', '{a}\nRecursos Humanos\nTel.: +34 600 123 456', '{a}\nAssistante de direction\n01 23 45 67 89', '{a}\nPersonalabteilung\nTel. 030 1234567\nExample GmbH, Hauptstr. 1, 10115 Berlin', '{a}\nUfficio amministrazione\nTel. 02 1234567', '{a}\nCoordenação | Exemplo Ltda.\n(11) 91234-5678', '{a}\nRecursos Humanos\nTlm. 912 345 678']
TYPO = {'address': 'adress', 'phone number': 'phone numbr', 'date of birth': 'date of brith', 'monthly income': 'montly income', 'teléfono': 'telefono', 'dirección': 'direccion', 'téléphone': 'telephone', 'Telefonnummer': 'Telefonnumer', 'indirizzo': 'indrizzo', 'telefone': 'telefon'}

FIELD_KEYS = list(C.keys())
ASIDE_ONLY_FIELDS = {'nationality', 'plate', 'iban'}
ASIDE_ONLY_CH = {'room'}
STYLES = ['email', 'thread', 'chat', 'paper', 'prose', 'list']

def build(r, lang, style, aside):
    l = L(lang)
    keys = [k for k in FIELD_KEYS if aside or k not in ASIDE_ONLY_FIELDS]
    nf = r.randint(4, 10)
    chosen = r.sample(keys, nf)
    if 'comments' in chosen:  # remarks last, as people write them
        chosen.remove('comments'); chosen.append('comments')
    items = []  # (text, [specs], kind)
    for k in chosen:
        s, spec = fsurf(r, lang, k)
        items.append((s, [spec], 'field'))
    chk = [k for k in CH if aside or k not in ASIDE_ONLY_CH]
    styles = ['paren', 'pipe', 'box', 'ballot', 'slash', 'oneof', 'bare'] if style in ('paper', 'list') else ['paren', 'oneof', 'prose', 'slash', 'pipe']
    for k in r.sample(chk, r.choice([0, 1, 1, 2])):
        t, spec = choice(r, lang, k, r.choice(styles))
        items.insert(r.randint(0, len(items)), (t, [spec], 'choice'))
    if r.random() < 0.5:
        k = r.choice(list(YESNO))
        t, spec = yesno(r, lang, k, r.choice(['q', 'box', 'ballot', 'paren', 'pipe'] if style in ('paper', 'list') else ['q', 'paren']))
        items.insert(r.randint(0, len(items)), (t, [spec], 'choice'))
    if r.random() < 0.3:
        t, specs = multi(r, lang, r.choice(list(MULTI)))
        items.insert(r.randint(0, len(items)), (t, specs, 'multi'))
    if r.random() < 0.45:
        t, specs = rows(r, lang, r.choice(list(ROWS)))
        items.insert(r.randint(0, len(items)), (t, specs, 'rows'))
    if r.random() < 0.12:
        # a typo in one field word: the expected alternative is spelled as written
        for i, (t, specs, kind) in enumerate(items):
            if kind == 'field' and t in TYPO:
                bad = TYPO[t]
                a, rest = specs[0].split(':', 1)
                items[i] = (bad, [f'{a}|{bad.lower()}:{rest}'], kind)
                break
    roles = r.choice(PAIRS)
    dated = r.random() < 0.5
    signers = [P[lang][x][2] for x in roles]
    fields = [s for _, specs, _ in items for s in specs]
    if dated:
        fields += [f'{DATEW[l]}:date_signed@{i + 1}' for i in range(len(roles))]
    fr = FRAME[lang]
    (a, m), (b, mb) = r.sample(NAMES, 2)
    title = r.choice(TITLES[lang])
    join = lambda xs: ', '.join(xs[:-1]) + f' {AND[l]} ' + xs[-1] if len(xs) > 1 else xs[0]
    def prose_of(its):
        # choices and rows read as their own sentences; plain fields as a comma list
        out, plain = [], []
        for t, _, kind in its:
            if kind == 'field': plain.append(t)
            else:
                if plain: out.append(join(plain) + '.'); plain = []
                out.append(t[0].upper() + t[1:] + ('' if t.endswith('?') else '.'))
        if plain: out.append(join(plain) + '.')
        return ' '.join(out)
    if style in ('email', 'thread'):
        body = []
        if style == 'thread' or r.random() < 0.5:
            body.append(fr['hdr'].format(a=a, m=m, b=b, s=title))
            body.append('')
        body.append(r.choice(fr['greet']))
        body.append('')
        body.append(r.choice(fr['ask']) + ' ' + prose_of(items))
        body.append(sign_prose(lang, roles, dated, r))
        body.append('')
        body.append(r.choice(fr['off']))
        body.append(r.choice(SIGBLOCK).format(a=a))
        if style == 'thread':
            body.append('')
            body.append(fr['quote'].format(b=b, mb=mb))
            body += r.sample(fr['q'], min(2, len(fr['q'])))
        prompt = '\n'.join(body)
    elif style == 'chat':
        lines = [f'[09:{10 + i:02d}] {a.split()[0]}: {t}' for i, (t, _, _) in enumerate(items)]
        lines.insert(0, f'[09:09] {a.split()[0]}: {r.choice(fr["ask"])}')
        lines.insert(r.randint(2, len(lines)), f'[09:3{r.randint(0, 9)}] {b.split()[0]}: {r.choice(fr["ack"])}')
        lines.append(f'[09:5{r.randint(0, 9)}] {a.split()[0]}: {sign_prose(lang, roles, dated, r)}')
        lines.append(f'[09:59] {b.split()[0]}: {r.choice(fr["ack"])}')
        prompt = '\n'.join(lines)
    elif style == 'paper':
        heads = HEADINGS[lang]
        lines = [title.upper()]
        per = max(1, (len(items) + 1) // 2)
        for i, (t, _, kind) in enumerate(items):
            if i % per == 0: lines += ['', heads[min(i // per, 2)]]
            if kind == 'field' and '~' in ''.join(_):
                lines.append(f'{t[0].upper() + t[1:]}:\n______________________________\n______________________________')
            elif kind == 'field':
                lines.append(f'{t[0].upper() + t[1:]}: ____________________')
            else:
                lines.append(t[0].upper() + t[1:])
        lines += ['', heads[3]] + sign_lines(lang, roles, dated)
        prompt = '\n'.join(lines)
    elif style == 'prose':
        prompt = f'{r.choice(fr["ask"])} {title}: {prose_of(items)} {sign_prose(lang, roles, dated, r)}'
    else:
        bullet = r.choice(['- ', '* ', '• ', ''])
        lines = [f'{title}:'] + [f'{bullet}{t}' for t, _, _ in items] + [sign_prose(lang, roles, dated, r)]
        prompt = '\n'.join(lines)
    return prompt, signers, fields

UNSUPPORTED = [
 ('nld', 'Hallo Pieter,\n\nKun je een inschrijfformulier maken voor de vrijwilligers? We hebben nodig: volledige naam, geboortedatum, e-mailadres, telefoonnummer en de maat van het T-shirt (S, M, L). De vrijwilliger ondertekent en de coördinator tekent ook.\n\nMet vriendelijke groet,\nAnouk'),
 ('nld', 'Huurovereenkomst: naam van de huurder, adres van de woning, maandelijkse huur, borg en ingangsdatum. Huurder en verhuurder ondertekenen allebei met datum.'),
 ('nld', 'Graag een formulier voor de ouderavond: naam van het kind, groep, naam van de ouder, telefoonnummer en opmerkingen. Een ouder of verzorger tekent.'),
 ('pol', 'Dzień dobry,\n\nproszę przygotować formularz zgłoszeniowy: imię i nazwisko, data urodzenia, adres e-mail, numer telefonu, adres zamieszkania. Podpisuje pracownik i kierownik.\n\nPozdrawiam,\nMarek'),
 ('pol', 'Umowa najmu: imię i nazwisko najemcy, adres mieszkania, wysokość czynszu, kaucja, data rozpoczęcia. Podpisują najemca i wynajmujący.'),
 ('pol', 'Formularz zgłoszenia szkody: opis zdarzenia, data, miejsce, dane świadków. Podpis zgłaszającego.'),
 ('swe', 'Hej!\n\nKan du göra ett anmälningsformulär till sommarlägret? Vi behöver barnets namn, födelsedatum, allergier, förälderns telefonnummer och e-post. En förälder eller vårdnadshavare skriver under.\n\nTack,\nLinnea'),
 ('swe', 'Hyresavtal: hyresgästens namn, lägenhetens adress, månadshyra och deposition. Hyresgäst och hyresvärd skriver under med datum.'),
 ('tur', 'Merhaba,\n\nYeni çalışanlar için bir form hazırlar mısın? Ad soyad, doğum tarihi, telefon numarası, e-posta adresi ve adres bilgisi gerekli. Çalışan ve müdür imzalayacak.\n\nTeşekkürler,\nAyşe'),
 ('tur', 'Kira sözleşmesi: kiracının adı, dairenin adresi, aylık kira bedeli, depozito ve başlangıç tarihi. Kiracı ve ev sahibi imzalar.'),
 ('dan', 'Hej Mette,\n\nKan du lave en tilmeldingsblanket til kurset? Vi skal bruge fulde navn, fødselsdato, e-mail, telefonnummer og eventuelle allergier. Deltageren underskriver.\n\nVenlig hilsen\nSøren'),
 ('ces', 'Dobrý den,\n\nprosím o přihlášku na letní tábor: jméno a příjmení dítěte, datum narození, bydliště, telefon rodičů a zdravotní omezení. Podepisuje zákonný zástupce.\n\nS pozdravem\nJana'),
 ('ron', 'Bună ziua,\n\nAvem nevoie de un formular de înscriere: nume și prenume, data nașterii, adresa de e-mail, număr de telefon și adresa de domiciliu. Semnează solicitantul și un martor.\n\nMulțumesc,\nAndrei'),
 ('fin', 'Hei,\n\nvoisitko tehdä ilmoittautumislomakkeen? Tarvitsemme nimen, syntymäajan, sähköpostiosoitteen, puhelinnumeron ja osoitteen. Hakija allekirjoittaa.\n\nKiitos,\nMikko'),
 ('hun', 'Kedves Anna!\n\nKészítenél egy jelentkezési lapot? Kell a teljes név, születési dátum, e-mail cím, telefonszám és lakcím. A jelentkező és a szülő aláírja.\n\nKöszönöm,\nPéter'),
 ('ind|zlm', 'Halo tim,\n\nTolong buatkan formulir pendaftaran karyawan baru: nama lengkap, tanggal lahir, alamat email, nomor telepon, dan alamat rumah. Karyawan dan manajer menandatangani.\n\nTerima kasih,\nDewi'),
 ('nob|nno|dan', 'Hei Kari,\n\nKan du lage et påmeldingsskjema? Vi trenger fullt navn, fødselsdato, e-postadresse, telefonnummer og adresse. Deltakeren skriver under, og en foresatt signerer for de under 18.\n\nHilsen\nOla'),
 ('slk|ces', 'Dobrý deň,\n\nprosím pripravte prihlášku: meno a priezvisko, dátum narodenia, adresa bydliska, telefónne číslo a e-mail. Podpisuje žiadateľ a svedok.\n\nĎakujem,\nPeter'),
 ('hrv|bos|srp', 'Poštovani,\n\nmolim vas pripremite obrazac za prijavu: ime i prezime, datum rođenja, adresa stanovanja, broj telefona i e-mail adresa. Potpisuju podnositelj zahtjeva i svjedok.\n\nLijep pozdrav,\nIvana'),
 ('vie', 'Chào anh,\n\nAnh làm giúp em mẫu đơn đăng ký nhé: họ và tên, ngày sinh, địa chỉ email, số điện thoại và địa chỉ nhà. Người đăng ký ký tên.\n\nCảm ơn anh,\nLan'),
 ('nld', 'Van: Sanne de Vries <sanne@example.nl>\nVerzonden: dinsdag 3 maart 2026 09:14\nAan: Team\nOnderwerp: Formulier schadeclaim\n\nBeste allemaal,\n\nWe hebben een formulier nodig voor schadeclaims: naam, polisnummer, datum van het incident, een beschrijving van wat er is gebeurd en het bedrag. De klant ondertekent.\n\nGroeten,\nSanne'),
 ('pol', '[10:02] Kasia: zrobisz formularz dla wolontariuszy?\n[10:03] Kasia: imię, nazwisko, telefon, e-mail, rozmiar koszulki S/M/L\n[10:05] Tomek: jasne\n[10:06] Kasia: podpisuje wolontariusz'),
 ('swe', 'Ansökan om ledighet\nNamn: ________\nPersonnummer: ________\nAvdelning: ________\nPeriod från: ____ till: ____\nSkäl till ledigheten:\n______________\nUnderskrift arbetstagare: ______ Datum: ____\nUnderskrift chef: ______'),
 ('tur', 'Veli izin formu: öğrencinin adı, sınıfı, velinin adı ve telefon numarası, alerjiler. Veli imzalar ve tarih atar.'),
]
# short and mixed prompts in supported languages that must not be refused (short text is ambiguous)
SHORT = [
 ('en', 'Name, email, phone. Signature.', [''], ['name:text', 'email:email', 'phone:phone']),
 ('es', 'Nombre, DNI, teléfono y firma.', [''], ['nombre:text', 'dni:text', 'telefono:phone']),
 ('fr', 'Nom, prénom, date de naissance. Signature.', [''], ['nom:text', 'prenom:text', 'naissance:date']),
 ('de', 'Name, Anschrift, Unterschrift.', [''], ['name:text', 'anschrift:text~']),
 ('it', 'Nome, cognome, codice fiscale, firma.', [''], ['nome:text', 'cognome:text', 'codice fiscale:text']),
 ('ptbr', 'Nome, CPF, celular e assinatura.', [''], ['nome:text', 'cpf:text', 'celular:phone']),
 ('ptpt', 'Nome, NIF, telemóvel. Assinatura.', [''], ['nome:text', 'nif:text', 'telemovel:phone']),
 ('de', 'Von: Office <office@example.com>\nSent: Monday, 2 March 2026 08:00\nTo: Jonas\nSubject: Formular\n\nHallo Jonas,\n\nbitte ein Formular für Besucher: Name, Firma, Telefonnummer, Grund des Besuchs. Der Besucher unterschreibt.\n\nDanke\nAnna', ['besucher'], ['name:text', 'firma:text', 'telefon:phone', 'grund:text~']),
 ('es', 'Hi Marta, see below from the client:\n\n---------- Forwarded message ---------\nDe: Luis Pérez <luis@example.es>\nAsunto: Formulario\n\nHola, necesitamos un formulario con nombre, teléfono, correo electrónico y dirección. Firma el cliente.\n\nGracias,\nLuis', ['cliente'], ['nombre:text', 'telefono:phone', 'correo|mail:email', 'direccion:text~']),
 ('it', 'Modulo: nome, email, telefono. Firma del cliente.', ['cliente'], ['nome:text', 'mail:email', 'telefono:phone']),
]

def corpus(seed, n_per, aside):
    r = random.Random(seed)
    cases = []
    for lang in LANGS:
        for i in range(n_per):
            style = STYLES[(i + (3 if aside else 0)) % len(STYLES)]
            prompt, signers, fields = build(r, lang, style, aside)
            cases.append({'id': f'{lang}-{style}-{i + 1}', 'lang': L(lang), 'variant': lang, 'style': style, 'prompt': prompt, 'signers': signers, 'fields': fields})
    return cases

tuning = corpus(4401, 25, False)
aside = corpus(9907, 7, True)  # 49
us = [{'id': f'xx-{i + 1}', 'lang': 'xx', 'variant': code.split('|')[0], 'style': 'unsupported', 'prompt': p, 'refuse': code, 'signers': [], 'fields': []} for i, (code, p) in enumerate(UNSUPPORTED)]
short = [{'id': f'{lang}-short-{i + 1}', 'lang': L(lang), 'variant': lang, 'style': 'short', 'prompt': p, 'signers': s if s != [''] else [], 'fields': f} for i, (lang, p, s, f) in enumerate(SHORT)]
# the aside set: 49 composed + 7 unsupported + 4 short = 60
aside += us[-7:] + short[-4:]
tuning += us[:-7] + short[:-4]
for name, cs in (('tuning', tuning), ('aside', aside)):
    with open(f'{name}.json', 'w') as f:
        json.dump({'about': 'Issue 44 corpus, composed by compose.py; format as test/generate/corpus/real-score.ts, plus "refuse" (ISO 639-3 codes, "a|b") for descriptions the generator must refuse with language_unsupported.', 'cases': cs}, f, ensure_ascii=False, indent=1)
    print(name, len(cs))
