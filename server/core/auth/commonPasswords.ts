/**
 * Passwords too common to accept (compared lower-cased). A hand-picked list of the most
 * frequent entries of public breach corpora and their obvious variants; short entries are
 * kept too because a future minimum-length change should not let them through.
 */
const LIST = `
123456 123456789 12345678 1234567890 12345 1234567 123123 111111 000000 654321 666666 121212
112233 123321 987654321 1234512345 11111111 00000000 88888888 12341234 123123123 147258369
159753 1q2w3e4r 1q2w3e4r5t 1qaz2wsx 1qazxsw2 zaq12wsx zaq1zaq1 qazwsx qazwsxedc 1234qwer
qwer1234 qwerty qwerty1 qwerty12 qwerty123 qwerty1234 qwertyu qwertyui qwertyuiop asdfgh asdfghjk
asdfghjkl asdf1234 zxcvbnm zxcvbnm1 zxcvbn 1q2w3e 1q2w3e4r5t6y q1w2e3r4 q1w2e3r4t5 a1b2c3d4
abc123 abc12345 abcd1234 abcdefg abcdefgh abcdef123 aaaaaaaa aa123456 a123456 a12345678
password password1 password12 password123 password1234 password! password1! passw0rd p@ssw0rd
p@ssword pa55word pa$$word passwort passwd password01 password2 password3 mypassword
mypassword1 newpassword secretpassword thepassword pass1234 passpass pass123 pass12345
letmein letmein1 letmein123 welcome welcome1 welcome123 welcome2 welcome01 iloveyou iloveyou1
iloveyou2 iloveu loveyou lovely loveme love1234 trustno1 sunshine sunshine1 princess princess1
football football1 baseball basketball soccer hockey hockey1 golfer tennis volleyball
dragon dragon1 monkey monkey1 monkey123 master master1 master123 shadow shadow1 superman
batman batman1 spiderman ironman starwars starwars1 pokemon pokemon1 naruto matrix
michael michael1 jennifer jessica jordan jordan23 michelle charlie charlie1 andrew daniel
thomas robert william joshua anthony matthew ashley amanda hannah jasmine nicole samantha
elizabeth christopher alexander alexandra victoria natasha jonathan benjamin patrick
freedom whatever nothing secret secret1 secret123 qwerty! hello hello123 hello1234
helloworld computer computer1 internet access access14 admin admin1 admin123 admin1234
administrator root toor changeme changeme1 changeit default guest guest123 user1234 test
test1234 test123 testing testing123 demo demo1234 login login123 system server
oracle mysql postgres database sql123 cisco router letmein! abcd qwertz azerty
1111111111 0987654321 9876543210 987654 7777777 77777777 999999999 55555555 66666666
12121212 13131313 123654789 741852963 789456123 159357 159357456 147852369 258456
google google1 facebook linkedin twitter instagram youtube yahoo hotmail gmail apple
microsoft windows samsung iphone android blackberry nokia sony toshiba
summer summer1 summer2024 summer2025 summer2026 winter winter1 winter2024 winter2025
spring spring2025 autumn autumn2025 january february march april october november
december monday friday sunday weekend holiday vacation christmas easter
spring2026 winter2026 autumn2026 summer2023 winter2023 password2023 password2024
password2025 password2026 welcome2024 welcome2025 welcome2026 company company1
company123 business business1 office office123 work1234 myspace myspace1 mustang
corvette ferrari porsche mercedes bmw123 harley yamaha chevy camaro jaguar
cheese chocolate cookie cookie1 banana orange apple123 pepper ginger coffee cupcake
tigger tiger lion eagle falcon dolphin butterfly flower flowers rainbow purple
yellow orange1 silver golden diamond crystal angel angel1 angels heaven
blink182 metallica nirvana slipknot eminem tupac beatles zeppelin
jesus jesus1 christ blessed blessing faith god123 godisgood
killer hunter hunter2 ranger soldier warrior knight ninja pirate wizard
buster maggie ginger1 bailey bella lucky lucky1 molly buddy max123 rocky
london paris berlin newyork chicago boston dallas texas california florida
america canada mexico brazil france germany london1 england scotland ireland
qwerty2024 qwerty2025 qwerty2026 asdfasdf asdasdasd qweqweqwe zxczxczxc 123qwe 123qweasd
123qweasdzxc qweasd qweasdzxc qweasdzxc123 1qaz2wsx3edc zaq1xsw2 !qaz2wsx
iloveyou! princess! sunshine! superman1 batman123 trustme believe forever friends
family family1 mother father sister brother daughter children baby123 babygirl babyboy
sweetheart sweetie sweety honey honeybee sugar darling beautiful pretty
letmeinnow opensesame abracadabra whatsup nopassword noaccess unknown anything
qwerty11 qwerty01 azerty123 azertyuiop qwertz123 1234abcd abcd123 abc123456 123abc
1password 1qaz1qaz 2wsx2wsx 3edc3edc zxcv1234 asdf123 a1234567 aa12345678 aa123123
`;

export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(LIST.split(/\s+/).filter(Boolean));

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.trim().toLowerCase());
}
